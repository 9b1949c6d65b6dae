import Foundation
import Testing

/// #17, item 5: every statement on a tenant's table names one tenant, so a
/// PostgreSQL sharded by tenant (Citus, docs/growth.md) routes
/// it to one shard. The few that span tenants on purpose (the sweeper, the
/// outbox claim, retention, /metrics, the local IM hub's own bookkeeping) say
/// so in a `-- cross-tenant:` (or `/* cross-tenant: */`) comment, which the
/// README's list follows.
@Suite struct TenantFirstTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Tables with a tenant_id column, read from the schema itself.
    static func tenantTables() throws -> Set<String> {
        let schema = root.appendingPathComponent("schema")
        let files = FileManager.default.enumerator(at: schema, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL }.filter { $0.pathExtension == "sql" } ?? []
        let table = try Regex(#"CREATE TABLE (\w+) \(([^;]*?)\n\);"#).dotMatchesNewlines()
        var names: Set<String> = []
        for file in files {
            for match in try String(contentsOf: file, encoding: .utf8).matches(of: table) {
                if let name = match.output[1].substring, match.output[2].substring?.contains("tenant_id ") == true { names.insert(String(name)) }
            }
        }
        return names
    }

    /// Each SQL text in our sources: the multi-line literals, and one-line
    /// literals that begin with a statement keyword.
    static func statements() throws -> [(file: String, sql: String)] {
        let folders = ["Sources", "Plugins"].map { root.appendingPathComponent($0) }
        let files = folders.flatMap { folder in
            (FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "swift" }
        }
        let multiLine = try Regex(#"\"\"\"(.*?)\"\"\""#).dotMatchesNewlines()
        let oneLine = try Regex(#""((?:SELECT|INSERT|UPDATE|DELETE|WITH) [^"\n]*)""#)
        var found: [(String, String)] = []
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            for match in text.matches(of: multiLine) + text.matches(of: oneLine) {
                if let sql = match.output[1].substring { found.append((file.lastPathComponent, String(sql))) }
            }
        }
        return found
    }

    @Test func everyStatementOnATenantTableNamesOneTenantOrSaysWhyNot() throws {
        let tables = try Self.tenantTables()
        #expect(tables.count >= 25 && tables.contains("rooms") && tables.contains("im_events"), "the schema was read: \(tables.sorted())")
        let statements = try Self.statements()
        #expect(statements.count >= 150, "the sources were read (\(statements.count) statements)")
        let reference = try Regex(#"\b(?:FROM|JOIN|UPDATE|INTO)\s+(\w+)"#).ignoresCase()
        let statementStart = try Regex(#"^\s*(?:--[^\n]*\n\s*)*(?:SELECT|INSERT|UPDATE|DELETE|WITH)\b"#).ignoresCase()
        // One tenant: a bound value compared to tenant_id, or inserted as it
        // (an insert that sets its identity column says OVERRIDING SYSTEM VALUE first).
        let oneTenant = try Regex(#"tenant_id\s*=\s*(?:\\\(|\$\d)|\(tenant_id,[^)]*\)\s*(?:OVERRIDING SYSTEM VALUE\s+)?(?:VALUES\s*\(|SELECT\s+)\\\("#)
        var offenders: [String] = []
        var crossTenant = 0
        for (file, sql) in statements where sql.contains(statementStart) {
            let named = Set(sql.matches(of: reference).compactMap { $0.output[1].substring.map { String($0).lowercased() } })
            guard !named.isDisjoint(with: tables) else { continue }
            if sql.contains("-- cross-tenant:") || sql.contains("/* cross-tenant:") {
                crossTenant += 1
            } else if !sql.contains(oneTenant) {
                offenders.append("\(file): \(sql.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: " ").prefix(120))")
            }
        }
        #expect(offenders.isEmpty, "name one tenant, or mark the statement `-- cross-tenant: why`:\n\(offenders.joined(separator: "\n"))")
        #expect(crossTenant >= 15, "the deliberate cross-tenant statements were found (\(crossTenant))")
    }
}

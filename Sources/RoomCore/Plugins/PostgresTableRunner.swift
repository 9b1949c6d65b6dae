import Foundation
import Logging
import PostgresNIO

/// Carries out a plugin's `TableQuery` for one tenant and plugin: on the
/// pool (a route's `call.tables`, each statement leased and, when it writes,
/// confirmed committed) or on a connection whose transaction the engine
/// holds (a hook, a room change, `tables.transaction`).
struct PostgresTableRunner: PluginTableRunner {
    enum Target: Sendable {
        case pool(Database)
        /// Used only by the task that holds the transaction.
        case transaction(UncheckedSendableBox<PostgresConnection>)
    }

    let target: Target
    let tenantID: TenantID
    let scope: TableScope
    let logger: Logger

    static func pool(_ database: Database, tenantID: TenantID, tables: Set<String>) -> PluginTables {
        PluginTables(runner: PostgresTableRunner(target: .pool(database), tenantID: tenantID, scope: TableScope(own: tables), logger: database.logger))
    }

    static func transaction(_ connection: PostgresConnection, tenantID: TenantID, tables: Set<String>, logger: Logger) -> PluginTables {
        PluginTables(runner: PostgresTableRunner(target: .transaction(UncheckedSendableBox(connection)), tenantID: tenantID,
                                                 scope: TableScope(own: tables), logger: logger))
    }

    func run(_ query: TableQuery) async throws -> [TableRow] {
        let statement = try postgresQuery(query)
        if PlanScope.isChecking, PlanScope.firstTime(query.sql, own: scope.own) {
            var explain = statement
            explain.sql = "EXPLAIN (FORMAT JSON) " + statement.sql
            let plan = try await rows(explain).first?.first?.bytes.map { String(buffer: $0) } ?? ""
            if let refusal = PlanScope.refusal(plan: plan, own: scope.own) {
                logger.error("plugin statement refused", metadata: ["reason": "\(refusal)"])
                throw TableStatementRefused(reason: refusal)
            }
        }
        return try await rows(statement).map(Self.tableRow)
    }

    private func rows(_ statement: PostgresQuery) async throws -> [PostgresRow] {
        switch target {
        case .pool(let database): try await database.query(statement)
        case .transaction(let connection): try await connection.value.run(statement, logger: logger).collect()
        }
    }

    /// The plugin's text with the tenant as `$1` and its values after it.
    private func postgresQuery(_ query: TableQuery) throws -> PostgresQuery {
        if let refusal = scope.refusal(query) {
            logger.error("plugin statement refused", metadata: ["reason": "\(refusal)"])
            throw TableStatementRefused(reason: refusal)
        }
        var bindings = PostgresBindings(capacity: query.values.count + 1)
        bindings.append(tenantID)
        for value in query.values {
            switch value {
            case .null: bindings.appendNull()
            case .text(let text): bindings.append(text)
            case .int(let int): bindings.append(int)
            case .double(let double): bindings.append(double)
            case .bool(let bool): bindings.append(bool)
            case .date(let date): bindings.append(date)
            case .texts(let texts): bindings.append(texts)
            case .ints(let ints): bindings.append(ints)
            }
        }
        return PostgresQuery(unsafeSQL: query.sql, binds: bindings)
    }

    /// A row's cells as plain values, by their PostgreSQL types.
    static func tableRow(_ row: PostgresRow) throws -> TableRow {
        try TableRow(row.map { cell in
            guard cell.bytes != nil else { return .null }
            switch cell.dataType {
            case .int2, .int4, .int8: return .int(try cell.decode(Int64.self))
            case .text, .varchar, .name, .bpchar: return .text(try cell.decode(String.self))
            case .bool: return .bool(try cell.decode(Bool.self))
            case .float4, .float8: return .double(try cell.decode(Double.self))
            case .timestamptz, .timestamp: return .date(try cell.decode(Date.self))
            case .textArray, .varcharArray: return .texts(try cell.decode([String].self))
            case .int8Array: return .ints(try cell.decode([Int64].self))
            case .int4Array: return .ints(try cell.decode([Int32].self).map(Int64.init))
            default:
                throw TableValueUnreadable(column: 0, expected: "a plain column (cast it in SQL)", found: "\(cell.columnName) of type \(cell.dataType)")
            }
        })
    }
}

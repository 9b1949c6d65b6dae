import Foundation
import NIOCore
import PostgresNIO
import Synchronization

/// Our statements as named prepared statements: PostgreSQL parses and plans
/// each once per connection instead of on every call.
///
/// Why (#19, measured): planning the session check took 0.18 ms against
/// 0.05 ms to run it, and pgbench ran the session check and a room read at
/// 4,450 transactions/s with unnamed statements (PostgresNIO's `query`)
/// against 15,300 prepared. Every statement of ours is written once with its
/// values bound, so one call site sends one SQL text: that text, with the
/// types of its bound values, names the prepared statement.
///
/// PostgresNIO prepares statements of types with a static SQL text; ours is
/// known only at the call, so the one type below reads it from a task-local
/// value, bound around the call (PostgresNIO reads it synchronously there).
enum PreparedStatements {
    /// Distinct texts prepared at most: a statement past these is sent
    /// unnamed, so a caller that builds texts freely cannot grow every
    /// connection's set without bound.
    static let limit = 400

    private struct Key: Hashable {
        let sql: String
        let types: [PostgresDataType]
    }

    private static let names = Mutex<[Key: AnyPreparedStatement.Text]>([:])

    /// The name and declared types to prepare `query` under, or nil to send
    /// it unnamed: transaction control, settings, LISTEN and DDL are not
    /// prepared (nor do they take one of the `limit` places), nor anything
    /// once `limit` texts are known.
    static func text(for query: PostgresQuery) -> AnyPreparedStatement.Text? {
        guard let types = boundTypes(query.binds) else { return nil }
        let key = Key(sql: query.sql, types: types)
        if let known = names.withLock({ $0[key] }) { return known }
        return preparable(query.sql) ? remember(key) : nil
    }

    /// A name for a new text, or nil once `limit` texts have one.
    private static func remember(_ key: Key) -> AnyPreparedStatement.Text? {
        let mayWrite = StatementEffect.mayWrite(key.sql)
        return names.withLock { names in
            if let known = names[key] { return known }
            guard names.count < limit else { return nil }
            let text = AnyPreparedStatement.Text(name: "rk\(names.count)", sql: key.sql, types: key.types, mayWrite: mayWrite)
            names[key] = text
            return text
        }
    }

    /// Reads, writes and CTEs; everything else is sent unnamed.
    static func preparable(_ sql: String) -> Bool {
        var rest = Substring(sql)
        while true {
            rest = rest.drop { $0 == " " || $0 == "\n" || $0 == "\t" }
            guard rest.hasPrefix("--") else { break }
            rest = rest.drop { $0 != "\n" }
        }
        let word = rest.prefix { $0.isLetter }.uppercased()
        return ["SELECT", "WITH", "INSERT", "UPDATE", "DELETE"].contains(word)
    }

    /// The types PostgresNIO declares for `binds` when it sends a statement
    /// unnamed, so a prepared one is typed the same (PostgreSQL would
    /// otherwise infer types that may not match the bound bytes; a NULL's
    /// type is left to PostgreSQL either way). PostgresNIO keeps them
    /// internal; nil when they cannot be read (then the statement is sent
    /// unnamed).
    static func boundTypes(_ binds: PostgresBindings) -> [PostgresDataType]? {
        guard binds.count > 0 else { return [] }
        if layoutIsKnown { return unsafeBitCast(binds, to: BindingsLayout.self).metadata.map(\.dataType) }
        return reflectedTypes(binds)
    }

    /// Reading them by reflection cost 5.6 % of the server's CPU in the
    /// flow (perf), so they are read from `PostgresBindings`' stored layout,
    /// as long as that layout is the one below: checked once against
    /// reflection on a sample of every kind of value we bind.
    private struct BindingsLayout {
        var metadata: [MetadataLayout]
        var bytes: ByteBuffer
    }

    private struct MetadataLayout {
        var dataType: PostgresDataType
        var format: PostgresFormat
        var protected: Bool
    }

    static let layoutIsKnown: Bool = {
        guard MemoryLayout<BindingsLayout>.size == MemoryLayout<PostgresBindings>.size,
              MemoryLayout<BindingsLayout>.alignment == MemoryLayout<PostgresBindings>.alignment else { return false }
        var sample = PostgresBindings()
        sample.append(Int64(1))
        sample.append(Optional<String>.none)
        sample.append("text")
        sample.append(Int(2))
        sample.append(Date(timeIntervalSince1970: 0))
        sample.append(true)
        sample.append(["a"])
        sample.append([Int64(3)])
        sample.append(Double(4))
        guard let reflected = reflectedTypes(sample), reflected.count == sample.count else { return false }
        return unsafeBitCast(sample, to: BindingsLayout.self).metadata.map(\.dataType) == reflected
    }()

    static func reflectedTypes(_ binds: PostgresBindings) -> [PostgresDataType]? {
        guard let metadata = Mirror(reflecting: binds).children.first(where: { $0.label == "metadata" })?.value else { return nil }
        var types: [PostgresDataType] = []
        types.reserveCapacity(binds.count)
        for entry in Mirror(reflecting: metadata).children {
            guard let type = Mirror(reflecting: entry.value).children.first(where: { $0.label == "dataType" })?.value as? PostgresDataType else {
                return nil
            }
            types.append(type)
        }
        return types.count == binds.count ? types : nil
    }

    /// Whether a failed prepared statement may have left its connection
    /// unable to run it again. PostgresNIO remembers a failed preparation
    /// for the connection's life: a statement first prepared inside a
    /// transaction that had already failed, or while a lock held it past
    /// the statement timeout, would fail on that connection for ever. Errors
    /// that only execution raises (bad data, a constraint, a raised
    /// exception, a serialization failure) cannot have come from preparing.
    static func mayHavePoisoned(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError else { return false }
        guard error.code == .server, let state = error.serverInfo?[.sqlState] else { return false }
        return !(state.hasPrefix("22") || state.hasPrefix("23") || state.hasPrefix("P0") || state == "40001")
    }
}

/// Any statement of ours, prepared under the name `PreparedStatements` gave
/// its text (see there).
struct AnyPreparedStatement: PostgresPreparedStatement {
    struct Text: Sendable {
        let name: String
        let sql: String
        let types: [PostgresDataType]
        /// Whether it may write when sent on its own (`StatementEffect`).
        let mayWrite: Bool
    }

    @TaskLocal static var text = Text(name: "", sql: "", types: [], mayWrite: true)

    static var name: String { text.name }
    static var sql: String { text.sql }
    static var bindingDataTypes: [PostgresDataType] { text.types }

    let binds: PostgresBindings

    func makeBindings() throws -> PostgresBindings { binds }

    func decodeRow(_ row: PostgresRow) throws -> PostgresRow { row }
}

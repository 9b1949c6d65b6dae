import Foundation

/// A statement over a plugin's own tables (#28, item 1): SQL text whose
/// values are bound as parameters, never spliced, and whose tenant is the
/// call's, not the plugin's to choose. A plugin writes
///
///     "SELECT owner FROM headset_devices WHERE tenant_id = \(.tenant) AND device_id = \(device)"
///
/// and `PluginTables` binds `.tenant` to the tenant the handle was made for:
/// a statement without it is refused before it is sent, and the handle has
/// no tenant id to give a plugin (`PluginSeamTests` backs this up by text:
/// no plugin binds `tenant.id` or a `tenantID` itself). Only compile-time
/// text is spliced (`unescaped:` takes a `StaticString`).
public struct TableQuery: Sendable, ExpressibleByStringInterpolation {
    /// The text with `$1…$n` for values; `.tenant` is always `$1`.
    public let sql: String
    /// The values of `$2…$n`, in order.
    public let values: [TableValue]
    /// Whether the text names the call's tenant (`\(.tenant)`).
    public let namesTenant: Bool

    /// A statement RoomKit built itself (`PluginTables.save(_:to:…)`),
    /// names checked as plain identifiers; `.tenant` is `$1`.
    init(sql: String, values: [TableValue], namesTenant: Bool) {
        self.sql = sql
        self.values = values
        self.namesTenant = namesTenant
    }

    public init(stringLiteral value: String) {
        sql = value
        values = []
        namesTenant = false
    }

    public init(stringInterpolation: StringInterpolation) {
        sql = stringInterpolation.sql
        values = stringInterpolation.values
        namesTenant = stringInterpolation.namesTenant
    }

    /// What `\(.tenant)` stands for.
    public enum Marker: Sendable { case tenant }

    public struct StringInterpolation: StringInterpolationProtocol {
        var sql = ""
        var values: [TableValue] = []
        var namesTenant = false

        public init(literalCapacity: Int, interpolationCount: Int) {
            sql.reserveCapacity(literalCapacity + interpolationCount * 3)
        }

        public mutating func appendLiteral(_ literal: String) {
            sql += literal
        }

        /// `\(.tenant)`: the handle's tenant, bound as `$1`.
        public mutating func appendInterpolation(_ marker: Marker) {
            namesTenant = true
            sql += "$1"
        }

        public mutating func appendInterpolation<Value: TableBindable>(_ value: Value) {
            values.append(value.tableValue)
            sql += "$\(values.count + 1)"
        }

        /// An optional value, bound as NULL when absent (an overload of its
        /// own: the generic one above made the compiler warn of a debug
        /// description it does not produce).
        public mutating func appendInterpolation<Value: TableBindable>(_ value: Value?) {
            values.append(value.tableValue)
            sql += "$\(values.count + 1)"
        }

        /// Text fixed at compile time (a column list), spliced as it is.
        public mutating func appendInterpolation(unescaped text: StaticString) {
            sql += text.description
        }

        /// A `RoomRowTable`'s name or columns, spliced: RoomKit's own row
        /// statements only (`PluginTables.rows(of:…)`), whose names the
        /// table checked are plain identifiers; not for plugins.
        mutating func appendInterpolation(identifiers names: [String]) {
            precondition(names.allSatisfy(RoomRowTable<NoRemovalRow>.isIdentifier), "plain identifiers only")
            sql += names.joined(separator: ", ")
        }
    }
}

/// A value bound to a `TableQuery` parameter, or read from a `TableRow`.
public enum TableValue: Sendable, Equatable {
    case null
    case text(String)
    case int(Int64)
    case double(Double)
    case bool(Bool)
    case date(Date)
    case texts([String])
    case ints([Int64])
}

/// A Swift value a `TableQuery` can bind.
public protocol TableBindable: Sendable {
    var tableValue: TableValue { get }
}

extension String: TableBindable { public var tableValue: TableValue { .text(self) } }
extension Int: TableBindable { public var tableValue: TableValue { .int(Int64(self)) } }
extension Int64: TableBindable { public var tableValue: TableValue { .int(self) } }
extension Double: TableBindable { public var tableValue: TableValue { .double(self) } }
extension Bool: TableBindable { public var tableValue: TableValue { .bool(self) } }
extension Date: TableBindable { public var tableValue: TableValue { .date(self) } }
extension Array: TableBindable where Element == String { public var tableValue: TableValue { .texts(self) } }
extension Optional: TableBindable where Wrapped: TableBindable {
    public var tableValue: TableValue { self?.tableValue ?? .null }
}

/// Room ids bound as a list (`room_id = ANY(\(ids))`).
public struct RoomIDList: TableBindable {
    public let ids: [RoomID]
    public init(_ ids: [RoomID]) { self.ids = ids }
    public var tableValue: TableValue { .ints(ids) }
}

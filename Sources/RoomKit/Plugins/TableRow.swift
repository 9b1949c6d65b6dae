import Foundation

/// One row a `TableQuery` returned, its columns in the statement's order.
public struct TableRow: Sendable, Equatable {
    public let values: [TableValue]

    public init(_ values: [TableValue]) {
        self.values = values
    }

    /// The columns as a tuple of Swift values: `row.decode((Int64, String?).self)`.
    public func decode<each Column: TableDecodable>(_ type: (repeat each Column).Type) throws -> (repeat each Column) {
        var index = 0
        func next<Value: TableDecodable>(_: Value.Type) throws -> Value {
            defer { index += 1 }
            guard index < values.count else { throw TableValueUnreadable(column: index, expected: "\(Value.self)", found: "no column") }
            do {
                return try Value(tableValue: values[index])
            } catch is TableValueMismatch {
                throw TableValueUnreadable(column: index, expected: "\(Value.self)", found: "\(values[index])")
            }
        }
        return (repeat try next((each Column).self))
    }
}

extension Array where Element == TableRow {
    /// Every row decoded as a tuple of columns.
    public func decode<each Column: TableDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(type) }
    }
}

/// A column was not of the type the plugin asked for: a plugin's mistake,
/// reported with the column's position.
public struct TableValueUnreadable: Error, CustomStringConvertible {
    public let column: Int
    public let expected: String
    public let found: String

    public init(column: Int, expected: String, found: String) {
        self.column = column
        self.expected = expected
        self.found = found
    }

    public var description: String { "column \(column) is not \(expected): \(found)" }
}

struct TableValueMismatch: Error {}

/// A Swift value a `TableRow` column can be read as.
public protocol TableDecodable {
    init(tableValue: TableValue) throws
}

extension String: TableDecodable {
    public init(tableValue: TableValue) throws {
        guard case .text(let value) = tableValue else { throw TableValueMismatch() }
        self = value
    }
}

extension Int64: TableDecodable {
    public init(tableValue: TableValue) throws {
        guard case .int(let value) = tableValue else { throw TableValueMismatch() }
        self = value
    }
}

extension Int: TableDecodable {
    public init(tableValue: TableValue) throws {
        guard case .int(let value) = tableValue, let int = Int(exactly: value) else { throw TableValueMismatch() }
        self = int
    }
}

extension Double: TableDecodable {
    public init(tableValue: TableValue) throws {
        switch tableValue {
        case .double(let value): self = value
        case .int(let value): self = Double(value)
        default: throw TableValueMismatch()
        }
    }
}

extension Bool: TableDecodable {
    public init(tableValue: TableValue) throws {
        guard case .bool(let value) = tableValue else { throw TableValueMismatch() }
        self = value
    }
}

extension Date: TableDecodable {
    public init(tableValue: TableValue) throws {
        guard case .date(let value) = tableValue else { throw TableValueMismatch() }
        self = value
    }
}

extension Array: TableDecodable where Element == String {
    public init(tableValue: TableValue) throws {
        guard case .texts(let value) = tableValue else { throw TableValueMismatch() }
        self = value
    }
}

extension Optional: TableDecodable where Wrapped: TableDecodable {
    public init(tableValue: TableValue) throws {
        if case .null = tableValue {
            self = nil
        } else {
            self = try Wrapped(tableValue: tableValue)
        }
    }
}

import Synchronization
import TOMLKit

/// A parsed config value, independent of the file format.
public indirect enum ConfigValue: Sendable, Equatable {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([ConfigValue])
    case table([String: ConfigValue])
    /// Dates and times: TOML has them, our settings never use them.
    case other(String)

    var typeName: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a boolean"
        case .array: "an array"
        case .table: "a table"
        case .other(let name): "a \(name)"
        }
    }
}

/// A problem found in a tenant file, named by file and dotted field path.
public struct ConfigIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var field: String
    public var message: String

    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String {
        field.isEmpty ? "\(file): \(message)" : "\(file): \(field): \(message)"
    }
}

public enum TOMLDocument {
    /// toml++ is not documented as safe to call from several threads at
    /// once; tenant files are parsed rarely, so parses take turns.
    private static let parsing = Mutex(())

    /// Parses TOML text into a table; a syntax error names line and column.
    public static func parse(_ text: String) -> Result<[String: ConfigValue], ConfigIssue> {
        parsing.withLock { _ in parseAlone(text) }
    }

    private static func parseAlone(_ text: String) -> Result<[String: ConfigValue], ConfigIssue> {
        do {
            let table = try TOMLTable(string: text)
            return .success(convert(table))
        } catch let error as TOMLParseError {
            let at = error.source.begin
            return .failure(ConfigIssue(file: "", field: "", message: "TOML syntax error at line \(at.line), column \(at.column): \(error.description)"))
        } catch {
            return .failure(ConfigIssue(file: "", field: "", message: "TOML syntax error: \(error)"))
        }
    }

    static func convert(_ table: TOMLTable) -> [String: ConfigValue] {
        var result: [String: ConfigValue] = [:]
        for key in table.keys {
            if let value = table[key] { result[key] = convert(value) }
        }
        return result
    }

    static func convert(_ value: TOMLValueConvertible) -> ConfigValue {
        switch value.type {
        case .string: .string(value.string ?? "")
        case .int: .int(value.int ?? 0)
        case .double: .double(value.double ?? 0)
        case .bool: .bool(value.bool ?? false)
        case .table: .table(value.table.map(convert) ?? [:])
        case .array: .array(value.array.map { $0.map(convert) } ?? [])
        case .date, .time, .dateTime: .other(value.type.rawValue)
        }
    }
}

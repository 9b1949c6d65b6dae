import Synchronization
import TOMLKit

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

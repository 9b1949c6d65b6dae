import Foundation

/// Reads settings out of one config table. It never stops at the first
/// problem: every wrong value and every key nobody asked for (a typo) is
/// collected as a `ConfigIssue` naming the field, so `tenants check` prints
/// them all at once.
public final class SettingsReader {
    public let file: String
    public let path: String
    private let table: [String: ConfigValue]
    private let environment: [String: String]
    private var read: Set<String> = []
    private var children: [SettingsReader] = []
    private var ownIssues: [ConfigIssue] = []

    public init(file: String, path: String, table: [String: ConfigValue], environment: [String: String] = [:]) {
        self.file = file
        self.path = path
        self.table = table
        self.environment = environment
    }

    /// All issues, including unknown keys, of this table and the tables read below it.
    public var issues: [ConfigIssue] {
        let unknown = table.keys.filter { !read.contains($0) }.sorted().map {
            ConfigIssue(file: file, field: field($0), message: "unknown setting")
        }
        return ownIssues + unknown + children.flatMap(\.issues)
    }

    public func report(_ key: String, _ message: String) {
        ownIssues.append(ConfigIssue(file: file, field: field(key), message: message))
    }

    public func has(_ key: String) -> Bool { table[key] != nil }

    /// Marks `key` read without reading it (a table refused as a whole, whose
    /// own keys would only repeat the problem).
    public func skip(_ key: String) { read.insert(key) }

    public func string(_ key: String, default fallback: String) -> String {
        optionalString(key) ?? fallback
    }

    public func optionalString(_ key: String) -> String? {
        guard let value = take(key) else { return nil }
        guard case .string(let string) = value else { return mismatch(key, value, "a string") }
        return string
    }

    public func bool(_ key: String, default fallback: Bool) -> Bool {
        guard let value = take(key) else { return fallback }
        guard case .bool(let bool) = value else { return mismatch(key, value, "true or false") ?? fallback }
        return bool
    }

    public func int(_ key: String, default fallback: Int, in range: ClosedRange<Int>) -> Int {
        guard let value = take(key) else { return fallback }
        guard case .int(let int) = value else { return mismatch(key, value, "an integer") ?? fallback }
        guard range.contains(int) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(int)")
            return fallback
        }
        return int
    }

    public func double(_ key: String, default fallback: Double, in range: ClosedRange<Double>) -> Double {
        guard let value = take(key) else { return fallback }
        let number: Double
        switch value {
        case .double(let double): number = double
        case .int(let int): number = Double(int)
        default: return mismatch(key, value, "a number") ?? fallback
        }
        guard range.contains(number) else {
            report(key, "must be between \(range.lowerBound) and \(range.upperBound), not \(number)")
            return fallback
        }
        return number
    }

    /// A duration in seconds: an integer, or a string such as "48h", "30m", "90s", "1h30m".
    public func duration(_ key: String, default fallback: Int, in range: ClosedRange<Int> = 1...(366 * 86_400)) -> Int {
        guard let value = take(key) else { return fallback }
        let seconds: Int?
        switch value {
        case .int(let int): seconds = int
        case .string(let text): seconds = Self.parseDuration(text)
        default: seconds = nil
        }
        guard let seconds else {
            report(key, "must be a duration such as \"48h\", \"30m\", \"20s\" or a number of seconds")
            return fallback
        }
        guard range.contains(seconds) else {
            report(key, "must be between \(range.lowerBound)s and \(range.upperBound)s, not \(seconds)s")
            return fallback
        }
        return seconds
    }

    public func stringArray(_ key: String, default fallback: [String] = []) -> [String] {
        guard let value = take(key) else { return fallback }
        guard case .array(let items) = value else { return mismatch(key, value, "an array of strings") ?? fallback }
        var strings: [String] = []
        for (index, item) in items.enumerated() {
            guard case .string(let string) = item else {
                report("\(key)[\(index)]", "must be a string, not \(item.typeName)")
                continue
            }
            strings.append(string)
        }
        return strings
    }

    /// A nested table; absent reads as empty, so its defaults apply.
    public func table(_ key: String) -> SettingsReader {
        var nested: [String: ConfigValue] = [:]
        if let value = take(key) {
            if case .table(let table) = value { nested = table } else { report(key, "must be a table, not \(value.typeName)") }
        }
        let child = SettingsReader(file: file, path: field(key), table: nested, environment: environment)
        children.append(child)
        return child
    }

    /// A secret, never written in the file: `<key>Env` names the environment
    /// variable that holds it.
    public func secret(_ key: String) -> String? {
        if has(key) {
            _ = take(key)
            report(key, "secrets are not written in tenant files: set \(key)Env to the name of an environment variable")
            return nil
        }
        guard let variable = optionalString("\(key)Env") else {
            report("\(key)Env", "is required: the name of the environment variable that holds \(key)")
            return nil
        }
        guard let value = environment[variable], !value.isEmpty else {
            report("\(key)Env", "environment variable \(variable) is not set")
            return nil
        }
        return value
    }

    /// Every key of this table (for tables keyed by id, such as `plugins`).
    public var keys: [String] { table.keys.sorted() }

    /// "48h", "30m", "20s", "1h30m", "2d": units d, h, m, s.
    public static func parseDuration(_ text: String) -> Int? {
        var total = 0, number = 0, sawDigit = false, sawUnit = false
        for character in text {
            if let digit = character.wholeNumberValue, character.isASCII {
                number = number * 10 + digit
                sawDigit = true
                guard number < 10_000_000 else { return nil }
                continue
            }
            guard sawDigit else { return nil }
            let unit: Int
            switch character {
            case "d": unit = 86_400
            case "h": unit = 3_600
            case "m": unit = 60
            case "s": unit = 1
            default: return nil
            }
            total += number * unit
            number = 0
            sawDigit = false
            sawUnit = true
        }
        if sawDigit { return sawUnit ? nil : number }
        return sawUnit ? total : nil
    }

    private func take(_ key: String) -> ConfigValue? {
        read.insert(key)
        return table[key]
    }

    private func mismatch<T>(_ key: String, _ value: ConfigValue, _ expected: String) -> T? {
        report(key, "must be \(expected), not \(value.typeName)")
        return nil
    }

    private func field(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }
}

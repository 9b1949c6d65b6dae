import Foundation

/// At most `count` in each fixed window of `seconds`. A tenant file writes
/// one as "count/duration": "100/1d", "1/3s"; "0" turns a limit off.
public struct RateLimit: Sendable, Equatable, CustomStringConvertible {
    public var count: Int
    public var seconds: Int

    public init(_ count: Int, per seconds: Int) {
        self.count = count
        self.seconds = seconds
    }

    /// nil for "0" (no limit); throws a reason for anything malformed.
    public static func parse(_ text: String) throws(ParseFailure) -> RateLimit? {
        if text == "0" { return nil }
        let parts = text.split(separator: "/", maxSplits: 1).map(String.init)
        guard parts.count == 2, let count = Int(parts[0]), (1...1_000_000).contains(count),
              let seconds = SettingsReader.parseDuration(parts[1]), (1...(31 * 86_400)).contains(seconds) else {
            throw ParseFailure()
        }
        return RateLimit(count, per: seconds)
    }

    public struct ParseFailure: Error {}

    public var description: String { "\(count) per \(seconds) s" }
}

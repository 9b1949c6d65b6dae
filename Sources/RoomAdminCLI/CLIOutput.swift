import Foundation
import RoomKit
import Synchronization

/// Where `roomkeeper admin` writes: standard output and error, or, in the
/// tests, a buffer (`CLIOutput.$current`).
public final class CLIOutput: Sendable {
    private let lines = Mutex<[String]>([])
    private let captures: Bool

    public init(capturing: Bool) {
        captures = capturing
    }

    @TaskLocal public static var current = CLIOutput(capturing: false)
    /// The environment the commands read (the process's, or a test's).
    @TaskLocal public static var environment: [String: String] = ProcessInfo.processInfo.environment

    public func line(_ text: String) {
        if captures {
            // As a reader of standard output would see it: line by line.
            lines.withLock { $0 += text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init) }
        } else {
            print(text)
        }
    }

    /// A progress line on standard error, rewritten in place; not captured.
    public func progress(_ text: String) {
        guard !captures else { return }
        FileHandle.standardError.write(Data("\r\(text)".utf8))
    }

    public func endProgress() {
        guard !captures else { return }
        FileHandle.standardError.write(Data("\n".utf8))
    }

    public var captured: [String] { lines.withLock { $0 } }

    /// `rows` as aligned columns under `columns`, the values read from each row's JSON.
    public func table(_ rows: [JSONValue], columns: [String]) {
        let cells = rows.map { row in columns.map { Self.cell(row[$0]) } }
        let widths = columns.indices.map { index in ([columns[index]] + cells.map { $0[index] }).map(\.count).max() ?? 0 }
        func render(_ values: [String]) -> String {
            zip(values, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                .trimmingCharacters(in: .whitespaces)
        }
        line(render(columns))
        for row in cells { line(render(row)) }
    }

    static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: ""
        case .string(let text)?: text
        case .array(let items)?: items.map { cell($0) }.joined(separator: ",")
        case let other?: other.parameterText
        }
    }
}

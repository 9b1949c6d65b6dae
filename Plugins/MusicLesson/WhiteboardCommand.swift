/// One whiteboard command of the seed's grammar: `type:value,value,…`,
/// commands joined by `;`. Values keep the text they were sent with, so a
/// parsed string encodes back to itself.
public struct WhiteboardCommand: Sendable, Equatable {
    public enum Kind: Int, Sendable, CaseIterable {
        case start = 1, move, end, undo, packetID, clear, clearAck, syncRequest, sync, syncPrepare, syncPrepareAck, mark, markEnd, docShare
    }

    public var kind: Kind
    /// The values as sent.
    public var values: [String]

    public var text: String { values.isEmpty ? "\(kind.rawValue):" : "\(kind.rawValue):\(values.joined(separator: ","))" }

    /// For start/move/end/mark: the point and colour; page 0 when the music app's page index is absent.
    public var point: (x: Double, y: Double, rgb: Int, page: Int)? {
        guard [.start, .move, .end, .mark].contains(kind), values.count >= 3,
              let x = Double(values[0]), let y = Double(values[1]), let rgb = Int(values[2]) else { return nil }
        return (x, y, rgb, values.count > 3 ? Int(values[3]) ?? 0 : 0)
    }
}

/// Why a command string was refused; the message names the command.
public struct WhiteboardError: Error, Sendable, Equatable, CustomStringConvertible {
    /// 1-based position of the command in the string.
    public var index: Int
    public var command: String
    public var reason: String

    public var description: String { "command \(index) \"\(command)\": \(reason)" }
}

public enum WhiteboardParser {
    public static let maxCommands = 2_000

    /// Every command of `data`, or the first that is wrong. A trailing `;` is allowed.
    public static func parse(_ data: String) -> Result<[WhiteboardCommand], WhiteboardError> {
        var parts = data.split(separator: ";", omittingEmptySubsequences: false).map(String.init)
        if parts.last == "" { parts.removeLast() }
        guard !parts.isEmpty else { return .failure(WhiteboardError(index: 0, command: "", reason: "no command")) }
        guard parts.count <= maxCommands else {
            return .failure(WhiteboardError(index: maxCommands + 1, command: "", reason: "at most \(maxCommands) commands per append"))
        }
        var commands: [WhiteboardCommand] = []
        for (offset, part) in parts.enumerated() {
            switch command(part) {
            case .success(let command): commands.append(command)
            case .failure(let reason): return .failure(WhiteboardError(index: offset + 1, command: part, reason: reason.text))
            }
        }
        return .success(commands)
    }

    public static func encode(_ commands: [WhiteboardCommand]) -> String {
        commands.map { $0.text + ";" }.joined()
    }

    struct Reason: Error { let text: String }

    static func command(_ text: String) -> Result<WhiteboardCommand, Reason> {
        let pieces = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard let typeText = pieces.first, let number = Int(typeText) else { return .failure(Reason(text: "must start with a type number and ':'")) }
        guard let kind = WhiteboardCommand.Kind(rawValue: number) else { return .failure(Reason(text: "unknown type \(number) (1-14)")) }
        let rest = pieces.count > 1 ? String(pieces[1]) : ""
        let values = rest.isEmpty ? [] : rest.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
        if let problem = check(kind, values) { return .failure(Reason(text: problem)) }
        return .success(WhiteboardCommand(kind: kind, values: values))
    }

    /// The arity and ranges of each type; nil when the values are right.
    static func check(_ kind: WhiteboardCommand.Kind, _ values: [String]) -> String? {
        func arity(_ counts: ClosedRange<Int>) -> String? {
            counts.contains(values.count) ? nil
                : "type \(kind.rawValue) takes \(counts.lowerBound == counts.upperBound ? "\(counts.lowerBound)" : "\(counts.lowerBound)-\(counts.upperBound)") values, not \(values.count)"
        }
        func unit(_ index: Int, _ name: String) -> String? {
            guard let value = Double(values[index]), value.isFinite, (0...1).contains(value) else { return "\(name) must be a number from 0 to 1" }
            return nil
        }
        func integer(_ index: Int, _ name: String, _ range: ClosedRange<Int>) -> String? {
            guard let value = Int(values[index]), range.contains(value) else { return "\(name) must be an integer from \(range.lowerBound) to \(range.upperBound)" }
            return nil
        }
        switch kind {
        case .start, .move, .end:
            return arity(3...4) ?? unit(0, "x") ?? unit(1, "y") ?? integer(2, "rgb", 0...0xFFFFFF)
                ?? (values.count == 4 ? integer(3, "pageIndex", 0...9_999) : nil)
        case .mark:
            return arity(3...3) ?? unit(0, "x") ?? unit(1, "y") ?? integer(2, "rgb", 0...0xFFFFFF)
        case .packetID:
            return arity(1...1) ?? integer(0, "id", 0...Int(Int32.max))
        case .sync:
            guard arity(2...2) == nil else { return arity(2...2) }
            if values[0].isEmpty || values[0].count > 64 { return "uid must be 1-64 characters" }
            return integer(1, "end", 0...1)
        case .docShare:
            guard arity(4...4) == nil else { return arity(4...4) }
            if values[0].isEmpty || values[0].count > 128 { return "docId must be 1-128 characters" }
            return integer(1, "pageCount", 1...9_999) ?? integer(2, "currentPage", 0...9_999) ?? integer(3, "type", 0...99)
        case .undo, .clear, .clearAck, .syncRequest, .syncPrepare, .syncPrepareAck, .markEnd:
            return arity(0...0)
        }
    }
}

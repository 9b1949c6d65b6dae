import Foundation
import RoomKit
import Synchronization

/// A plugin statement's tables as PostgreSQL itself reads them (#42): the
/// relations its plan names, each written (a ModifyTable's target) or read.
/// The text check (`TableScope`) reads the word after FROM, so a comma join
/// (`FROM mine m, sessions s`) passed it; the plan names `sessions`. Planning
/// costs a round trip, so it runs where statements are few and new: the
/// tests turn it on (`RoomTestSupport`), and each distinct statement is
/// explained once per process.
public enum PlanScope {
    private static let checking = Atomic<Bool>(false)

    public static var isChecking: Bool { checking.load(ordering: .relaxed) }

    /// From now on, in this process.
    public static func turnOn() { checking.store(true, ordering: .relaxed) }

    private static let explained = Mutex<Set<String>>([])

    /// Whether `sql` for a plugin of `own` tables is still to be explained
    /// (true once per statement and scope).
    static func firstTime(_ sql: String, own: Set<String>) -> Bool {
        let key = own.sorted().joined(separator: ",") + "\u{1f}" + sql
        return explained.withLock { $0.count < 16_384 && $0.insert(key).inserted }
    }

    /// Why the plan of `EXPLAIN (FORMAT JSON)` shows a statement outside its
    /// scope, or nil: it may write only `own`, and read `own` and the
    /// relations the engine publishes for reading.
    static func refusal(plan: String, own: Set<String>) -> String? {
        guard let parsed = JSONValue.parse(plan) else { return "its plan could not be read" }
        var written: [String] = [], read: [String] = []
        collect(parsed, written: &written, read: &read)
        if let table = written.first(where: { !own.contains($0) }) {
            return "its plan writes \(table), which is not one of the plugin's tables"
        }
        if let table = read.first(where: { !own.contains($0) && !TableScope.sharedForReading.contains($0) }) {
            return "its plan reads \(table), which is not one of the plugin's tables"
        }
        return nil
    }

    private static func collect(_ value: JSONValue, written: inout [String], read: inout [String]) {
        switch value {
        case .object(let node):
            if let relation = node["Relation Name"]?.string {
                if node["Node Type"]?.string == "ModifyTable" { written.append(relation) } else { read.append(relation) }
            }
            for child in node.values { collect(child, written: &written, read: &read) }
        case .array(let items):
            for item in items { collect(item, written: &written, read: &read) }
        default:
            break
        }
    }
}

import PostgresNIO
import Synchronization

/// Counts the statements a task sends, BEGIN, COMMIT and commit probes
/// included: each is a round trip. Tests pin a write's round trips with it
/// (`ops/bench` counts them from PostgreSQL's statement log); with no tally
/// bound, nothing is counted.
///
/// It also keeps every statement that wrote a room's row outside
/// `RoomEngine.commit` (#42): the test of the engine's write entry points
/// runs each under a tally and expects none.
public final class StatementTally: Sendable {
    @TaskLocal public static var current: StatementTally?
    /// Set by `RoomEngine.commit` around the writes it commits.
    @TaskLocal static var inRoomCommit = false

    private let value = Atomic<Int>(0)
    private let bypasses = Mutex<[String]>([])

    public init() {}

    public var count: Int { value.load(ordering: .relaxed) }

    /// The statements that wrote `rooms` or `room_members` outside a commit.
    public var roomWritesOutsideCommit: [String] { bypasses.withLock { $0 } }

    /// Each statement's first line (a commit's probe as `probe`), for a test's message.
    public var sent: [String] { texts.withLock { $0 } }
    private let texts = Mutex<[String]>([])

    static func add() {
        guard let current else { return }
        current.value.add(1, ordering: .relaxed)
        current.texts.withLock { $0.append("probe") }
    }

    static func add(_ query: PostgresQuery) {
        guard let current else { return }
        current.value.add(1, ordering: .relaxed)
        current.texts.withLock { $0.append(String(query.sql.trimmingCharacters(in: .whitespacesAndNewlines).prefix(80))) }
        // A statement that writes a room's row or a membership (made here:
        // a tally is bound in tests only).
        let roomWrite = #/(?i)(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+(rooms|room_members)\b/#
        if !inRoomCommit, query.sql.contains(roomWrite) { current.bypasses.withLock { $0.append(query.sql) } }
    }
}

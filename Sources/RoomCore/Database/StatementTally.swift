import Synchronization

/// Counts the statements a task sends, BEGIN, COMMIT and commit probes
/// included: each is a round trip. Tests pin a write's round trips with it
/// (`ops/bench` counts them from PostgreSQL's statement log); with no tally
/// bound, nothing is counted.
public final class StatementTally: Sendable {
    @TaskLocal public static var current: StatementTally?

    private let value = Atomic<Int>(0)

    public init() {}

    public var count: Int { value.load(ordering: .relaxed) }

    static func add() {
        current?.value.add(1, ordering: .relaxed)
    }
}

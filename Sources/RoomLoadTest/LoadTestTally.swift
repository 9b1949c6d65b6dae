import Foundation
import Synchronization

/// What the run's tasks count as they go: errors by code, deliveries and
/// their latencies. Shared by every member's socket.
final class LoadTestTally: Sendable {
    private struct State {
        var errors: [String: Int] = [:]
        var latenciesMs: [Double] = []
        var sent = 0
        var expected = 0
        var retries = 0
    }

    private let state = Mutex(State())

    func error(_ key: String) { state.withLock { $0.errors[key, default: 0] += 1 } }
    /// A socket told "try again later" (1013) before it was ready, opened again.
    func retried() { state.withLock { $0.retries += 1 } }
    func delivered(latencyMs: Double) { state.withLock { $0.latenciesMs.append(latencyMs) } }
    func sent(reaching others: Int) { state.withLock { $0.sent += 1; $0.expected += others } }

    var deliveries: Int { state.withLock { $0.latenciesMs.count } }
    var expected: Int { state.withLock { $0.expected } }

    func fill(_ report: inout LoadTestReport) {
        state.withLock { state in
            report.errors = state.errors
            report.imRetries = state.retries
            report.messagesSent = state.sent
            report.deliveriesExpected = state.expected
            report.deliveries = state.latenciesMs.count
            report.latencyMs = .init(samples: state.latenciesMs)
        }
    }
}

/// Runs `body` over `items`, at most `width` at once, in order of `items`.
func concurrently<Item: Sendable, Value: Sendable>(_ items: [Item], width: Int,
                                                   _ body: @escaping @Sendable (Item) async -> Value) async -> [Value] {
    await withTaskGroup(of: (Int, Value).self) { group in
        var results = [Value?](repeating: nil, count: items.count)
        var next = 0
        func start() {
            let index = next
            let item = items[index]
            next += 1
            group.addTask { (index, await body(item)) }
        }
        while next < min(width, items.count) { start() }
        while let (index, value) = await group.next() {
            results[index] = value
            if next < items.count { start() }
        }
        return results.map { $0! }
    }
}

import Foundation
import Synchronization

/// Thrown when a test stage outlives its deadline.
public struct DeadlineExceeded: Error, CustomStringConvertible {
    public let description: String
}

/// Runs `body`, but gives up after `seconds` even if `body` ignores
/// cancellation (it is then abandoned): a stuck server start or shutdown
/// fails its test with a message instead of hanging the whole run.
public func withDeadline<T: Sendable>(
    _ seconds: Double, _ stage: @escaping @Sendable () -> String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    let slot = Slot<T>()
    return try await withCheckedThrowingContinuation { continuation in
        slot.set(continuation)
        let work = Task {
            do { slot.resume(.success(try await body())) } catch { slot.resume(.failure(error)) }
        }
        Task {
            try? await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            if slot.resume(.failure(DeadlineExceeded(description: "no progress for \(Int(seconds))s: \(stage())"))) { work.cancel() }
        }
    }
}

private final class Slot<T: Sendable>: Sendable {
    private let continuation = Mutex<CheckedContinuation<T, any Error>?>(nil)

    func set(_ value: CheckedContinuation<T, any Error>) {
        continuation.withLock { $0 = value }
    }

    /// Resumes once; later calls do nothing and return false.
    @discardableResult
    func resume(_ result: Result<T, any Error>) -> Bool {
        guard let waiting = continuation.withLock({ value -> CheckedContinuation<T, any Error>? in
            defer { value = nil }
            return value
        }) else { return false }
        waiting.resume(with: result)
        return true
    }
}

/// Where a live test is, for deadline messages.
public final class StageLog: Sendable {
    private let stage = Mutex("starting the server")
    public init() {}
    public func enter(_ name: String) { stage.withLock { $0 = name } }
    public var current: String { stage.withLock { $0 } }
}

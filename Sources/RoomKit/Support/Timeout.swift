/// Thrown when `withTimeout` gives up.
public struct TimeoutError: Error, Sendable, CustomStringConvertible {
    public let operation: String
    public let seconds: Double

    public init(operation: String, seconds: Double) {
        self.operation = operation
        self.seconds = seconds
    }
    public var description: String { "\(operation) did not finish within \(seconds)s" }
}

/// Runs `body`, cancelling it after `seconds`.
public func withTimeout<T: Sendable>(
    _ seconds: Double, operation: String, _ body: @escaping @Sendable () async throws -> T
) async throws -> T {
    try await withThrowingTaskGroup(of: T.self) { group in
        group.addTask { try await body() }
        group.addTask {
            try await Task.sleep(for: .milliseconds(Int(seconds * 1000)))
            throw TimeoutError(operation: operation, seconds: seconds)
        }
        defer { group.cancelAll() }
        guard let first = try await group.next() else { throw TimeoutError(operation: operation, seconds: seconds) }
        return first
    }
}

import NIOPosix

/// CPU-heavy work (bcrypt, parsing large payloads) runs on NIO's blocking
/// thread pool, never on an event loop: on 2 cores, a few inline bcrypt
/// calls stall every tenant's requests and sockets.
public enum CPUWork {
    public static func run<Result: Sendable>(_ body: @escaping @Sendable () throws -> Result) async throws -> Result {
        try await NIOThreadPool.singleton.runIfActive(body)
    }
}

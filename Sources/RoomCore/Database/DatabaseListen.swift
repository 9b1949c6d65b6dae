import PostgresNIO

extension Database {
    /// How often a LISTEN connection is pinged, and how long a ping may take.
    public static let listenPingSeconds: Double = 2
    /// The LISTEN connection's `application_name`.
    public static let listenApplicationName = "roomkeeper listen"

    /// LISTENs on `channel` on a connection of its own, and keeps that
    /// connection honest: it is pinged every 2 s (a ping unanswered within
    /// 2 s closes it), and closed when the router has moved to another
    /// primary. Either way `body`'s sequence ends with an error, and the
    /// caller reconnects and treats the time away as a gap (it replays).
    ///
    /// Why (#27): a LISTEN connection to a primary that hangs, or whose host
    /// is gone without a TCP reset, stays "established" for ~15 minutes;
    /// meanwhile that instance served stale room lists, missed other
    /// instances' tenant reloads (a revoked admin key kept working there)
    /// and stopped relaying their chat.
    public func listen(on channel: String, _ body: @escaping @Sendable (PostgresNotificationSequence) async throws -> Void) async throws {
        try await listen(on: [channel]) { try await body($0[0]) }
    }

    /// The same for several channels on the one connection: `body` gets one
    /// sequence per channel, in `channels`' order, once every LISTEN is in place.
    public func listen(on channels: [String], _ body: @escaping @Sendable ([PostgresNotificationSequence]) async throws -> Void) async throws {
        let router = router
        try await withDedicatedConnection { connection in
            let host = router?.activeHost.name
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await DatabaseDeadline.$statementSeconds.withValue(Self.listenPingSeconds) {
                        while true {
                            try await Task.sleep(for: .milliseconds(Int(Self.listenPingSeconds * 1000)))
                            if let router, router.activeHost.name != host {
                                try? await connection.close()
                                return
                            }
                            // Closes the connection when unanswered (DatabaseDeadline).
                            try await connection.run("SELECT 1", logger: logger)
                        }
                    }
                }
                defer { group.cancelAll() }
                // Named, so an operator (and a test) finds it in pg_stat_activity:
                // its last query is the 2 s ping's, not its LISTEN.
                try await connection.run("SELECT set_config('application_name', \(Self.listenApplicationName), false)", logger: logger)
                try await Self.listen(connection, on: channels[...], listening: [], body)
            }
        }
    }

    /// LISTENs on each channel in turn (PostgresNIO's `listen` takes one and
    /// UNLISTENs when its closure ends), then runs `body` with all of them.
    private static func listen(
        _ connection: PostgresConnection, on channels: ArraySlice<String>, listening: [PostgresNotificationSequence],
        _ body: @escaping @Sendable ([PostgresNotificationSequence]) async throws -> Void
    ) async throws {
        guard let channel = channels.first else { return try await body(listening) }
        try await connection.listen(on: channel) { sequence in
            try await listen(connection, on: channels.dropFirst(), listening: listening + [sequence], body)
        }
    }
}

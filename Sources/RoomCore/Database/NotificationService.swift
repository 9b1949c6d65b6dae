import Foundation
import Logging
import ServiceLifecycle

/// What one LISTEN channel's follower does with it (#28, item 5). Every
/// follower shares the instance's one LISTEN connection, so they gain and
/// lose notifications together, and each has one way to catch up after a
/// gap: it is told `listening()` every time the LISTEN is in place (the
/// first time too: what was notified before reached nobody here).
public protocol NotificationFollower: Sendable {
    var channel: String { get }
    /// Every LISTEN is in place, after the start or a gap.
    func listening()
    func notified(_ payload: String)
    /// The connection is gone: notifications sent from now on reach nobody
    /// here until `listening()` again.
    func lost()
}

/// The instance's one LISTEN connection (#28, item 5): room lists, tenant
/// reloads, the local IM and the outbox each follow a channel on it, with
/// one reconnect path (pinged every 2 s, dropped when the primary moves:
/// `Database.listen`). It was three connections with three loops, and the
/// outbox had none: an instance heard of work only from its own commits.
public struct NotificationService: Service {
    let database: Database
    let followers: [any NotificationFollower]
    let logger: Logger

    public init(database: Database, followers: [any NotificationFollower], logger: Logger) {
        precondition(Set(followers.map(\.channel)).count == followers.count, "one follower a channel")
        self.database = database
        self.followers = followers
        self.logger = logger
    }

    public func run() async throws {
        defer { for follower in followers { follower.lost() } }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await database.listen(on: followers.map(\.channel)) { sequences in
                        for follower in followers { follower.listening() }
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            for (follower, sequence) in zip(followers, sequences) {
                                group.addTask {
                                    for try await notification in sequence { follower.notified(notification.payload) }
                                }
                            }
                            // One sequence ending means the connection did: all end.
                            defer { group.cancelAll() }
                            try await group.next()
                            throw ListenEnded()
                        }
                    }
                }
            } catch {
                for follower in followers { follower.lost() }
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                logger.warning("the LISTEN connection was lost; reconnecting (room lists are read from PostgreSQL, the outbox polls, the local IM replays)",
                               metadata: ["error": "\(String(describing: type(of: error)))"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

private struct ListenEnded: Error {}

/// The outbox's channel: an insert trigger on `outbox` notifies it once per
/// statement that queued work, and so do retries and replays, so every
/// instance's dispatcher claims at once, not only the committer's.
public struct OutboxWakeFollower: NotificationFollower {
    public static let channel = "roomkeeper_outbox"
    let signal: OutboxSignal

    public init(signal: OutboxSignal) {
        self.signal = signal
    }

    public var channel: String { Self.channel }
    /// Work queued during a gap is due now.
    public func listening() { signal.wake() }
    public func notified(_ payload: String) { signal.wake() }
    public func lost() {}
}

import Logging
import PostgresNIO
import RoomCore
import ServiceLifecycle

/// Keeps this instance's room lists current (#19): LISTENs on
/// `roomkeeper_rooms`, which the `rooms` triggers notify with the
/// `tenant/plugin` of every list a commit changed, and forgets those lists.
/// Lists are served from memory only while the LISTEN is in place; after a
/// lost connection they are read from PostgreSQL until it is back, then
/// cached again from empty (a change made in the gap reached nobody here).
public struct RoomListListener: Service {
    static let channel = "roomkeeper_rooms"
    let database: Database
    let cache: RoomListCache
    let logger: Logger

    public func run() async throws {
        defer { cache.stopListening() }
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await database.listen(on: Self.channel) { notifications in
                        cache.startListening()
                        defer { cache.stopListening() }
                        for try await notification in notifications {
                            cache.forget(payload: notification.payload)
                        }
                    }
                }
            } catch {
                cache.stopListening()
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                logger.warning("room list listener lost its connection; lists are read from PostgreSQL until it is back")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }
}

import Logging
import PostgresNIO
import RoomCore
import ServiceLifecycle

/// A tenant reload reaches every instance (#17): the instance that reloads
/// (SIGHUP or the admin route) announces it on `roomkeeper_tenants`, and
/// every other instance, listening, reloads its own copy of the files. A
/// revoked admin key is thus refused everywhere within the NOTIFY's delay.
public struct TenantReloadBroadcast: Sendable {
    static let channel = "roomkeeper_tenants"
    let database: Database
    /// Who announced, so an instance does not reload twice for its own reload.
    let instanceID: String

    func announce() async throws {
        try await database.query("SELECT pg_notify(\(Self.channel), \(instanceID))")
    }
}

/// Listens for other instances' reloads and follows them. Each time its
/// LISTEN is in place (the first time included: a reload announced while
/// this instance was starting reached nobody here) it reloads once, so an
/// announcement made before or between connections is never missed.
public struct TenantReloadListener: Service {
    let broadcast: TenantReloadBroadcast
    let tenants: TenantDirectory
    let logger: Logger

    public func run() async throws {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown {
                    try await broadcast.database.listen(on: TenantReloadBroadcast.channel) { notifications in
                        follow(from: "listening")
                        for try await notification in notifications where notification.payload != broadcast.instanceID {
                            follow(from: "another instance")
                        }
                    }
                }
            } catch {
                if Task.isCancelled || Task.isShuttingDownGracefully { return }
                logger.warning("tenant reload listener lost its connection; reconnecting")
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    private func follow(from source: String) {
        switch tenants.reload(logger: logger) {
        case .applied(let count):
            logger.info("tenants reloaded", metadata: ["after": "\(source)", "tenants": "\(count)"])
        case .rejected(let failure):
            for issue in failure.issues { logger.error("tenant file problem", metadata: ["issue": "\(issue)"]) }
        }
    }
}

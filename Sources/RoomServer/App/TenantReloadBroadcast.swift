import Logging
import PostgresNIO
import RoomCore

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

/// Follows other instances' reloads. Each time the LISTEN is in place (the
/// first time included: a reload announced while this instance was starting
/// reached nobody here) it reloads once, so an announcement made before or
/// between connections is never missed.
public struct TenantReloadFollower: NotificationFollower {
    let broadcast: TenantReloadBroadcast
    let tenants: TenantDirectory
    let logger: Logger

    public var channel: String { TenantReloadBroadcast.channel }
    public func listening() { follow(from: "listening") }

    public func notified(_ payload: String) {
        guard payload != broadcast.instanceID else { return }
        follow(from: "another instance")
    }

    public func lost() {}

    private func follow(from source: String) {
        switch tenants.reload(logger: logger) {
        case .applied(let count):
            logger.info("tenants reloaded", metadata: ["after": "\(source)", "tenants": "\(count)"])
            let database = broadcast.database, logger = logger
            Task {
                do { try await database.reloadCells() } catch {
                    logger.error("could not read the tenant directory", metadata: ["error": "\(LoggableError.describe(error))"])
                }
            }
        case .rejected(let failure):
            for issue in failure.issues { logger.error("tenant file problem", metadata: ["issue": "\(issue)"]) }
        }
    }
}

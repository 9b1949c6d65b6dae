import Logging
import RoomCore
import ServiceLifecycle
import UnixSignals

/// Reloads the tenant files on SIGHUP; an invalid set keeps the previous one.
/// A reload that applied is announced to every other instance.
public struct TenantReloader: Service {
    let tenants: TenantDirectory
    let broadcast: TenantReloadBroadcast
    let logger: Logger

    public func run() async throws {
        // Registering the signal source is itself an await: keep it inside the
        // cancellation too, or a shutdown that comes first waits forever.
        await cancelWhenGracefulShutdown {
            for await _ in await UnixSignalsSequence(trapping: .sighup) {
                switch tenants.reload(logger: logger) {
                case .applied:
                    do { try await broadcast.database.reloadCells() } catch {
                        logger.error("could not read the tenant directory", metadata: ["error": "\(LoggableError.describe(error))"])
                    }
                    do { try await broadcast.announce() } catch {
                        logger.warning("could not announce the reload to other instances", metadata: ["error": "\(LoggableError.describe(error))"])
                    }
                case .rejected(let failure):
                    for issue in failure.issues { logger.error("tenant file problem", metadata: ["issue": "\(issue)"]) }
                }
            }
        }
    }
}

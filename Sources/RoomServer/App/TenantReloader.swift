import Logging
import RoomCore
import ServiceLifecycle
import UnixSignals

/// Reloads the tenant files on SIGHUP; an invalid set keeps the previous one.
public struct TenantReloader: Service {
    let tenants: TenantDirectory
    let logger: Logger

    public func run() async throws {
        // Registering the signal source is itself an await: keep it inside the
        // cancellation too, or a shutdown that comes first waits forever.
        try? await cancelWhenGracefulShutdown {
            for await _ in await UnixSignalsSequence(trapping: .sighup) {
                if case .rejected(let failure) = tenants.reload(logger: logger) {
                    for issue in failure.issues { logger.error("tenant file problem", metadata: ["issue": "\(issue)"]) }
                }
            }
        }
    }
}

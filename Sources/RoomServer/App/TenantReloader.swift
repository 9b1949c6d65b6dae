import Logging
import RoomCore
import ServiceLifecycle
import UnixSignals

/// Reloads the tenant files on SIGHUP; an invalid set keeps the previous one.
public struct TenantReloader: Service {
    let tenants: TenantDirectory
    let logger: Logger

    public func run() async throws {
        for await _ in await UnixSignalsSequence(trapping: .sighup).cancelOnGracefulShutdown() {
            if case .rejected(let failure) = tenants.reload(logger: logger) {
                for issue in failure.issues { logger.error("tenant file problem", metadata: ["issue": "\(issue)"]) }
            }
        }
    }
}

import Foundation
import Logging
import Synchronization

/// The tenant set in force. Reads are lock-protected snapshots (every request
/// reads it); a reload swaps the set only when the new one is entirely valid.
public final class TenantDirectory: Sendable {
    public enum ReloadOutcome: Sendable {
        case applied(tenants: Int)
        case rejected(TenantLoadFailure)
    }

    public struct Status: Sendable {
        public var loadedAt: Date
        public var lastAttemptAt: Date
        public var lastError: [ConfigIssue]
    }

    public let path: String
    private let loader: TenantLoader
    private let state: Mutex<(set: TenantSet, status: Status)>

    /// Loads `path` once; throws when that first set is invalid, so a server
    /// never starts on a bad configuration.
    public init(path: String, loader: TenantLoader) throws(TenantLoadFailure) {
        self.path = path
        self.loader = loader
        let set = try loader.load(directory: path).get()
        let now = Date()
        state = Mutex((set, Status(loadedAt: now, lastAttemptAt: now, lastError: [])))
    }

    public var current: TenantSet { state.withLock { $0.set } }
    public var status: Status { state.withLock { $0.status } }

    public subscript(id: TenantID) -> Tenant? { current[id] }

    /// Re-reads the directory; an invalid set leaves the previous one in force.
    @discardableResult
    public func reload(logger: Logger) -> ReloadOutcome {
        let result = loader.load(directory: path)
        let now = Date()
        return state.withLock { state in
            state.status.lastAttemptAt = now
            switch result {
            case .success(let set):
                state.set = set
                state.status.loadedAt = now
                state.status.lastError = []
                logger.info("tenants reloaded", metadata: ["tenants": "\(set.byID.count)"])
                return .applied(tenants: set.byID.count)
            case .failure(let failure):
                state.status.lastError = failure.issues
                logger.error("tenant reload rejected; previous tenants stay in force", metadata: ["issues": "\(failure.issues.count)"])
                return .rejected(failure)
            }
        }
    }
}

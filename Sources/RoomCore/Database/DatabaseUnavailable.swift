import PostgresNIO
import _ConnectionPoolModule

/// PostgreSQL cannot serve the request now: no connection could be leased in
/// time (the server is down, restarting or failing over), a connection broke
/// under the request, or the server is shutting down or read-only (a standby
/// after a failover). Routes answer it as "try again", never as an internal
/// error. Nothing of the request was acknowledged: a write whose commit was
/// not confirmed (`CommitNotConfirmed`) may or may not have been applied, and
/// a retry must find out (as a dissolve's retry finds the room closed).
public struct DatabaseUnavailable: Error, Sendable, CustomStringConvertible {
    public let reason: String

    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { "the database is unavailable: \(reason)" }

    /// Whether `error` is PostgreSQL being away rather than a bad request.
    public static func matches(_ error: any Error) -> Bool {
        if error is DatabaseUnavailable || error is CommitNotConfirmed { return true }
        // The pool gave up connecting (after a minute of refusals).
        if let error = error as? ConnectionPoolError { return error == .connectionCreationCircuitBreakerTripped || error == .poolShutdown }
        guard let error = error as? PSQLError else { return false }
        switch error.code {
        case .serverClosedConnection, .connectionError, .uncleanShutdown, .poolClosed, .clientClosedConnection:
            return true
        default:
            // 57P0x: the server is shutting down or starting; 25006: read-only
            // (we reached a standby); 08xxx: connection exceptions.
            guard let state = error.serverInfo?[.sqlState] else { return false }
            return state.hasPrefix("57P") || state == "25006" || state.hasPrefix("08")
        }
    }
}

/// PostgreSQL rolled the transaction back for a reason of its own, not the
/// request's: a deadlock's victim (40P01) or a serialization failure
/// (40001), class 40. Nothing was written and the same request may run
/// again, so the caller is told "try again", not an internal error. Not
/// `DatabaseUnavailable.matches`: the server is up, and the router must not
/// suspect its primary for it.
enum RolledBackByPostgres {
    static func matches(_ error: any Error) -> Bool {
        guard let error = error as? PSQLError, let state = error.serverInfo?[.sqlState] else { return false }
        return state.hasPrefix("40")
    }
}

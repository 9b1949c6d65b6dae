import Logging

extension Failure {
    /// The one classifier of an error escaping a request (#28, item 6): the
    /// client routes and the admin API both start here, so a new kind of
    /// error is classified once and each API only renders it.
    public init(classifying error: any Error) {
        switch error {
        case let error as ClientError: self = .refused(error)
        case let error as ParameterError: self = .badParameter(error)
        case let error as RoomError: self = .room(error)
        case let error as IMError: self = .provider(service: "IM", transient: error.isTransient, detail: "\(error)")
        case let error as MediaError:
            let transient = switch error { case .timeout, .unavailable: true; case .rejected: false }
            self = .provider(service: "media", transient: transient, detail: "\(error)")
        case let error as ServiceBusy: self = .databaseUnavailable(detail: error.description)
        case let error as CommitNotConfirmed where !error.rolledBack: self = .outcomeUnknown(detail: error.description)
        case _ where DatabaseUnavailable.matches(error) || RolledBackByPostgres.matches(error):
            self = .databaseUnavailable(detail: LoggableError.describe(error))
        default: self = .internal(detail: LoggableError.describe(error))
        }
    }

    /// Says in the log what the caller is not told: a refusal is the
    /// caller's business and is not logged; "try again" is a warning; an
    /// internal error is an error.
    public func log(to logger: Logger, path: String) {
        switch self {
        case .refused, .badParameter, .room: break
        case .provider(let service, _, let detail):
            logger.warning("\(service) provider call failed", metadata: ["error": "\(detail)", "path": "\(path)"])
        case .outcomeUnknown(let detail):
            logger.warning("a write's outcome is unknown", metadata: ["error": "\(detail)", "path": "\(path)"])
        case .databaseUnavailable(let detail):
            // The detail names the cause: PostgreSQL away, or a busy share
            // (`ServiceBusy`: the tenant's password checks), which the log
            // once called "database unavailable" too.
            logger.warning("unavailable for a moment; told to try again", metadata: ["error": "\(detail)", "path": "\(path)"])
        case .internal(let detail):
            logger.error("request failed", metadata: ["error": "\(detail)", "path": "\(path)"])
        }
    }
}

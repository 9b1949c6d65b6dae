/// What went wrong with a request, classified once (#28, item 6): the client
/// routes render it in their wire (`WireProtocol.clientError(for:)`), the
/// admin API as problem+json. The engine's classifier
/// (`Failure(classifying:)`) is the one place an error's type is asked.
public enum Failure: Sendable, Equatable {
    /// A plugin's own refusal, in its wire's codes.
    case refused(ClientError)
    /// Input the route could not accept, by field.
    case badParameter(ParameterError)
    /// The engine refused the transition.
    case room(RoomError)
    /// An IM or media vendor the request needed did not answer (`transient`)
    /// or refused; nothing was done.
    case provider(service: String, transient: Bool, detail: String)
    /// PostgreSQL is restarting, failing over or out of connections; nothing
    /// was acknowledged.
    case databaseUnavailable(detail: String)
    /// The database connection broke after a write was sent, before its
    /// commit was reported: it may or may not have been applied, so a retry
    /// must read before it writes again (#41: releasing the request's
    /// `Idempotency-Key` here ran the write twice).
    case outcomeUnknown(detail: String)
    /// Anything else: a defect. Its text goes to the log, never to the caller.
    case `internal`(detail: String)

    /// Whether the answer is the request's final one (kept for an
    /// `Idempotency-Key`): refusals are, "try again" is not, and neither is
    /// "too often": kept, a rate limit's refusal was replayed to the retry
    /// it asks for, for the key's 24 hours.
    public var isFinal: Bool {
        switch self {
        case .refused, .badParameter: true
        case .room(.rateLimited): false
        case .room: true
        case .provider, .databaseUnavailable, .outcomeUnknown, .internal: false
        }
    }

    /// What a client is told when a write's outcome is unknown.
    public static let outcomeUnknownText =
        "the connection to the database broke as the change was committed: it may have been made; read before you try again"
}

import PostgresNIO

/// What an error may say in a log. `String(reflecting: PSQLError)` prints
/// the failed query with its bind values, which are request parameters (a
/// client's text, a token's digest): for PostgreSQL errors only the SQLSTATE
/// and the server's message are kept.
public enum LoggableError {
    public static func describe(_ error: any Error) -> String {
        if let error = error as? PSQLError {
            let state = error.serverInfo?[.sqlState] ?? "-"
            let message = error.serverInfo?[.message] ?? "\(error.code)"
            return "PostgreSQL error \(state): \(message)"
        }
        return String(reflecting: error)
    }
}

import Foundation
import HTTPTypes
import OpenAPIAsyncHTTPClient
import OpenAPIRuntime

/// Sends the admin key as `Authorization: Bearer …` on every request: the
/// contract's one security scheme (an operator key, or a tenant's admin key).
/// The key travels only in that header: never in a URL, never logged here.
public struct AdminKey: ClientMiddleware {
    private let key: String

    public init(_ key: String) {
        self.key = key
    }

    public func intercept(
        _ request: HTTPRequest, body: HTTPBody?, baseURL: URL, operationID: String,
        next: @Sendable (HTTPRequest, HTTPBody?, URL) async throws -> (HTTPResponse, HTTPBody?)
    ) async throws -> (HTTPResponse, HTTPBody?) {
        var request = request
        request.headerFields[.authorization] = "Bearer \(key)"
        return try await next(request, body, baseURL)
    }
}

/// The contract's `date-time` is RFC 3339, which the server writes with
/// fractional seconds in some answers (the event feed's `timestamp`, stamped
/// in microseconds) and without in others; OpenAPIRuntime's own transcoders
/// each read only one of the two forms.
public struct RFC3339Dates: DateTranscoder {
    public init() {}

    public func encode(_ date: Date) throws -> String {
        date.formatted(Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    public func decode(_ text: String) throws -> Date {
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return date }
        return try Date(text, strategy: Date.ISO8601FormatStyle())
    }
}

extension Client {
    /// A client of the admin API at `url` (the server's root, as the console's
    /// and `roomkeeper admin`'s ROOMKEEPER_ADMIN_URL), over AsyncHTTPClient's
    /// shared client, signed with `key`.
    public init(url: URL, key: String) {
        self.init(serverURL: url, configuration: Configuration(dateTranscoder: RFC3339Dates()),
                  transport: AsyncHTTPClientTransport(), middlewares: [AdminKey(key)])
    }
}

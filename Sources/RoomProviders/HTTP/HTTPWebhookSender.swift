import AsyncHTTPClient
import Foundation
import NIOCore
import RoomCore

/// Webhook POSTs over the shared AsyncHTTPClient: one attempt per call (the
/// outbox retries), no redirects followed (a signed delivery goes where the
/// tenant file says or nowhere), and nothing of the request logged.
public struct HTTPWebhookSender: WebhookSender {
    /// One client for the process, as `HTTPClient.shared` is, but never
    /// following redirects; like it, never shut down.
    private static let client: HTTPClient = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = .seconds(3)
        return HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
    }()

    private var client: HTTPClient { Self.client }

    public init() {}

    public func post(url: String, headers: [(String, String)], body: [UInt8], timeoutSeconds: Int) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .seconds(Int64(timeoutSeconds)))
        // The body is read only to release the connection; receivers' answers are not kept.
        _ = try? await response.body.collect(upTo: 64 << 10)
        return Int(response.status.code)
    }
}

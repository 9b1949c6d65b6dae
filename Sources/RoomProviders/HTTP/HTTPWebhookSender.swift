import AsyncHTTPClient
import Foundation
import Tracing
import NIOCore
import NIOPosix
import RoomCore
#if canImport(Glibc)
import Glibc
#endif

/// Webhook POSTs over the shared AsyncHTTPClient: one attempt per call (the
/// outbox retries), no redirects followed (a signed delivery goes where the
/// tenant file says or nowhere), only to addresses the policy allows, and
/// nothing of the request logged.
public struct HTTPWebhookSender: WebhookSender {
    /// One client for the process, as `HTTPClient.shared` is, but never
    /// following redirects; like it, never shut down. At most 8 connections
    /// to one receiver (AsyncHTTPClient's default) and 3 s to connect.
    private static let configuration: HTTPClient.Configuration = {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow
        configuration.timeout.connect = .seconds(3)
        configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 8
        // Its own span names the host only: a tenant's webhook URL may hold a
        // token, and AsyncHTTPClient's span records the whole URL (#30).
        configuration.tracing.tracer = nil
        return configuration
    }()

    /// For literal addresses: nothing to pin.
    private static let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)

    private let policy: WebhookAddressPolicy
    private let resolve: @Sendable (String) async throws -> [IPAddress]

    /// `resolve`: the check's resolver (the system's; tests name their own).
    public init(policy: WebhookAddressPolicy = .strict, resolve: @escaping @Sendable (String) async throws -> [IPAddress] = HTTPWebhookSender.resolve) {
        self.policy = policy
        self.resolve = resolve
    }

    public func post(url: String, headers: [(String, String)], body: [UInt8], timeoutSeconds: Int) async throws -> Int {
        guard let host = URLComponents(string: url)?.host else { throw WebhookAttemptFailed(.other) }
        // Checked on every attempt, on what the name resolves to now, and
        // connected to the address checked (#41: resolved again to connect,
        // a rebinding name got through to a private address).
        let addresses = try await resolve(host)
        if policy.refusal(host: host, addresses: addresses) != nil {
            throw WebhookAttemptFailed(addresses.isEmpty ? .unresolved : .addressRefused)
        }
        let client = IPAddress(host) != nil || addresses.isEmpty
            ? Self.client : PinnedHTTPClients.shared.client(host: host, address: addresses[0], configuration: Self.configuration)
        return try await withSpan("webhook POST", ofKind: .client) { span in
            span.attributes["server.address"] = host
            var request = HTTPClientRequest(url: url)
            request.method = .POST
            // The trace goes on to the receiver, this span its parent.
            for (name, value) in headers + TraceCarrier.headers() { request.headers.add(name: name, value: value) }
            request.body = .bytes(ByteBuffer(bytes: body))
            do {
                let response = try await client.execute(request, timeout: .seconds(Int64(timeoutSeconds)))
                // The body is read only to release the connection; receivers' answers are not kept.
                _ = try? await response.body.collect(upTo: 64 << 10)
                span.attributes["http.response.status_code"] = Int(response.status.code)
                return Int(response.status.code)
            } catch {
                throw WebhookAttemptFailed(Self.kind(of: error))
            }
        }
    }

    static func kind(of error: any Error) -> WebhookAttemptFailed.Kind {
        if let error = error as? HTTPClientError {
            switch error {
            case .connectTimeout, .deadlineExceeded, .readTimeout, .writeTimeout: return .timeout
            case .remoteConnectionClosed, .socksHandshakeTimeout: return .connect
            default: break
            }
        }
        if String(describing: type(of: error)).contains("SSL") { return .tls }  // NIOSSL's errors, without depending on it
        if error is NIOConnectionError || error is IOError || error is ChannelError { return .connect }
        return .other
    }

    /// The host's addresses (a literal address is itself), resolved off the
    /// event loops; empty when the name does not resolve.
    public static func resolve(_ host: String) async throws -> [IPAddress] {
        if let literal = IPAddress(host) { return [literal] }
        return try await NIOThreadPool.singleton.runIfActive {
            var hints = addrinfo()
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
            var list: UnsafeMutablePointer<addrinfo>?
            guard getaddrinfo(host, nil, &hints, &list) == 0, let first = list else { return [] }
            defer { freeaddrinfo(first) }
            var addresses: [IPAddress] = []
            var next: UnsafeMutablePointer<addrinfo>? = first
            while let entry = next {
                if let raw = entry.pointee.ai_addr,
                   let address = try? SocketAddress(raw, size: Int(entry.pointee.ai_addrlen)).flatMap(IPAddress.init) {
                    addresses.append(address)
                }
                next = entry.pointee.ai_next
            }
            return addresses
        }
    }
}

extension SocketAddress {
    /// From a `sockaddr` getaddrinfo returned.
    init?(_ raw: UnsafeMutablePointer<sockaddr>, size: Int) throws {
        switch Int32(raw.pointee.sa_family) {
        case AF_INET:
            self = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { SocketAddress($0.pointee, host: "") }
        case AF_INET6:
            self = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { SocketAddress($0.pointee, host: "") }
        default:
            return nil
        }
    }
}

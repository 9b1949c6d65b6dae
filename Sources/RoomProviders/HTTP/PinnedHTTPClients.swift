import AsyncHTTPClient
import NIOCore
import RoomCore
import Synchronization

/// HTTP clients that connect a webhook's host to the address its attempt
/// checked (#41, DNS rebinding): a name that resolves to a public address
/// for the check and to a private one a moment later must not be followed
/// there. AsyncHTTPClient resolves names itself, so each host gets a client
/// whose `dnsOverride` names the checked address; it keeps its pooled
/// connections while the name resolves to the same address. TLS still
/// verifies the certificate for the host's name (the override keeps it as
/// the server name).
///
/// Bounded: at most `limit` hosts (the least recently used client beyond is
/// shut down), and a client replaced because its host moved is shut down a
/// minute later, after deliveries in flight on it have ended (an attempt's
/// timeout is at most 30 s).
final class PinnedHTTPClients: Sendable {
    static let shared = PinnedHTTPClients()

    /// Webhook receivers are few per deployment (a few per tenant).
    let limit = 256

    private struct Pinned {
        let address: String
        let client: HTTPClient
        var used: UInt64
    }

    private struct State {
        var clients: [String: Pinned] = [:]
        var tick: UInt64 = 0
    }

    private let state = Mutex(State())

    /// The client that connects `host` to `address`.
    func client(host: String, address: IPAddress, configuration: HTTPClient.Configuration) -> HTTPClient {
        let target = address.text
        let (client, retired): (HTTPClient, HTTPClient?) = state.withLock { state in
            state.tick += 1
            if var pinned = state.clients[host], pinned.address == target {
                pinned.used = state.tick
                state.clients[host] = pinned
                return (pinned.client, nil)
            }
            var retired = state.clients[host]?.client
            if retired == nil, state.clients.count >= limit,
               let oldest = state.clients.min(by: { $0.value.used < $1.value.used }) {
                retired = oldest.value.client
                state.clients[oldest.key] = nil
            }
            var configuration = configuration
            configuration.dnsOverride = [host: target]
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
            state.clients[host] = Pinned(address: target, client: client, used: state.tick)
            return (client, retired)
        }
        if let retired {
            Task {
                try? await Task.sleep(for: .seconds(60))
                try? await retired.shutdown()
            }
        }
        return client
    }
}

@testable import RoomServer
import Testing

/// Whose address a request counts against: a forwarded address only when a
/// trusted proxy says so, and never one the client wrote itself.
@Suite struct ClientAddressTests {
    let proxies: Set<String> = ["10.0.0.2", "10.0.0.3"]

    @Test func aDirectClientIsItsPeerWhateverItsHeaderSays() {
        #expect(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: "203.0.113.1", trusted: proxies) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "198.51.100.7", forwardedFor: nil, trusted: proxies) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: nil, forwardedFor: "203.0.113.1", trusted: proxies) == "unknown")
    }

    @Test func behindTrustedProxiesTheRightmostUntrustedHopIsTheClient() {
        // The client wrote "1.1.1.1" itself; the first proxy appended the real address.
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: "1.1.1.1, 198.51.100.7", trusted: proxies) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: "198.51.100.7, 10.0.0.3", trusted: proxies) == "198.51.100.7")
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: nil, trusted: proxies) == "10.0.0.2")
        #expect(ClientAddress.resolve(peer: "10.0.0.2", forwardedFor: "10.0.0.3", trusted: proxies) == "10.0.0.2")
    }
}

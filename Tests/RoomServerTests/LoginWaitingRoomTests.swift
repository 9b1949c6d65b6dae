import Foundation
import RoomCore
import RoomProviders
import RoomServer
import RoomTestSupport
import Testing

/// #41: sockets that never log in. One process-wide gate of 1,000 let one
/// address's idle `/t/*/im/ws` upgrades shut every tenant's local IM logins
/// out. Waiting sockets are bounded per address and per tenant, and the
/// instance's gate closes the oldest waiting socket, not the newest.
@Suite struct LoginWaitingRoomTests {
    static func login(_ accid: String, _ token: String) -> String {
        JSONValue.object(["type": "login", "accid": .string(accid), "token": .string(token)]).jsonText
    }

    @Test func oneAddressesIdleSocketsShutNoOtherAddressOut() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
        let token = try await local.createAccount(IMAccount(accid: "ann", name: "ann")).token
        try await fixture.live { http in
            let port = try #require(http.client.port)
            let path = "/t/\(tenant)/im/ws"
            var idle: [RawWebSocket] = []
            for _ in 0..<LoginWaitingLimits().perAddress {
                idle.append(try #require(try await RawWebSocket.open(port: port, path: path, from: "127.0.0.1")))
            }
            let more = try #require(try await RawWebSocket.open(port: port, path: path, from: "127.0.0.1"))
            #expect(await more.received(containing: "from this address", within: .seconds(3)), "the address's next socket is refused (4029)")
            let other = try #require(try await RawWebSocket.open(port: port, path: path, from: "127.0.0.2"))
            try await other.send(Self.login("ann", token))
            #expect(await other.received(containing: #""ready""#, within: .seconds(5)), "another address logs in")
            await other.close()
            await more.close()
            for socket in idle { await socket.close() }
        }
    }

    @Test func theInstancesGateClosesTheOldestWaitingSocket() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
        let token = try await local.createAccount(IMAccount(accid: "bob", name: "bob")).token
        try await fixture.live(options: { $0.loginWaiting.total = 3 }) { http in
            let port = try #require(http.client.port)
            let path = "/t/\(tenant)/im/ws"
            var idle: [RawWebSocket] = []
            for _ in 0..<3 {
                idle.append(try #require(try await RawWebSocket.open(port: port, path: path, from: "127.0.0.1")))
                try await Task.sleep(for: .milliseconds(50))  // in this order
            }
            let newcomer = try #require(try await RawWebSocket.open(port: port, path: path, from: "127.0.0.2"))
            try await newcomer.send(Self.login("bob", token))
            #expect(await newcomer.received(containing: #""ready""#, within: .seconds(5)), "the newest socket logs in")
            #expect(await idle[0].received(containing: "waited longest", within: .seconds(3)), "the oldest waiting socket was closed")
            #expect(await !idle[2].received(containing: "waited longest", within: .milliseconds(200)), "the others wait on")
            for socket in idle { await socket.close() }
            await newcomer.close()
        }
    }
}

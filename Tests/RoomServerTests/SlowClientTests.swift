import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// #16, finding 8: a connection cannot be held open by a client that sends
/// nothing, or that trickles its request head (slowloris).
@Suite struct SlowClientTests {
    @Test func aTrickledRequestHeadIsCutOffAtItsDeadline() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live(options: { $0.requestHeadSeconds = 1; $0.idleSeconds = 2 }) { http in
            let port = try #require(http.client.port)
            let slow = try await RawConnection.open(port: port)
            try await slow.write("GET /healthz HTTP/1.1\r\n")
            for header in 0..<3 {
                try await Task.sleep(for: .milliseconds(300))
                try await slow.write("X-Slow-\(header): 1\r\n")
            }
            #expect(await slow.closedByServer(within: .seconds(3)), "the head never ended; the server hung up")
            #expect(slow.received.isEmpty, "and answered nothing")

            let silent = try await RawConnection.open(port: port)
            #expect(await silent.closedByServer(within: .seconds(3)), "a connection that never sends a request")
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosedButABusyOneIsNot() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live(options: { $0.requestHeadSeconds = 1; $0.idleSeconds = 2 }) { http in
            let port = try #require(http.client.port)
            let client = try await RawConnection.open(port: port)
            for _ in 0..<4 {
                try await client.write("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
                try await Task.sleep(for: .milliseconds(700))
            }
            #expect(client.received.components(separatedBy: "HTTP/1.1 200").count - 1 == 4, "requests past the head deadline are served")
            #expect(await client.closedByServer(within: .seconds(4)), "then, idle, it is closed")
        }
    }
}

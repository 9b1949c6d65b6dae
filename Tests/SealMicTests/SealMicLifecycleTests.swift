import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import SealMic
import Testing

/// Rooms live 2 h through the engine's durable expiry, across restarts.
@Suite struct SealMicExpiryTests {
    /// One server creates the room and stops; another, started later, expires
    /// it when the clock passes 2 h: the member connected to its local IM
    /// hears SM:RDNtfyMsg, then the chatroom closes.
    @Test func aRoomExpiresAfterTwoHoursAcrossARestart() async throws {
        let clock = ManualClock()
        let fixture = try await SealMicFixture(clock: clock, sweepInterval: .seconds(3_600))
        let (host, guest, roomID) = try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login()
            let guest = try await client.login()
            let roomID = try await client.createRoom(host)
            let member = try await ChatroomMember.enter(guest, roomID, fixture: fixture, port: try #require(http.client.port))
            #expect(errCode(try await client.call("/room/join", ["roomId": .string(roomID)], as: guest.token)) == 0)
            _ = try await member.client.close()
            return (host, guest, roomID)
        }

        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let member = try await ChatroomMember.enter(guest, roomID, fixture: fixture, port: try #require(http.client.port))
            clock.advance(by: 2 * 3_600 - 1)
            #expect(try await fixture.server.server().sweeper.sweepOnce() == 0)
            #expect(errCode(try await client.call("/room/detail", ["roomId": .string(roomID)], as: host.token)) == 0)
            clock.advance(by: 2)
            #expect(try await fixture.server.server().sweeper.sweepOnce() == 1)

            #expect(try await member.next("SM:RDNtfyMsg") == .object([:]))
            #expect(try await member.client.next("closed")["chatroom"]?.string == roomID)
            #expect(try await fixture.local.isOpen(roomID) == false)
            #expect(errCode(try await client.call("/room/detail", ["roomId": .string(roomID)], as: host.token)) == 20)
            let shown = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(roomID)", key: fixture.server.operatorKey)
            #expect(shown.json["room"]?["closeReason"]?.string == "expired")
        }
    }
}

import Foundation
import RoomCore
import RoomTestSupport
import SealMic
import Testing

/// #42 item 4: a route reads its wire once. A mic move's caller comes from
/// where SealMic's wire carries it (`Authorization`), resolved with the
/// room and its positions in the move's one read, not once by hand and
/// again by each read after it.
@Suite struct MicMoveRoundTripsTests {
    @Test func aMicMoveChecksItsLoginOnceWithTheRoom() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login(), ann = try await client.login()
            let id = try await client.createRoom(host)
            _ = try await client.call("/room/join", ["roomId": .string(id)], as: ann.token)
            let instance = try fixture.server.server()
            let services = instance.services
            let tenant = try #require(services.tenants[fixture.server.id(0)])
            let sealmic = try #require(tenant.plugin("sealmic")).plugin
            func move(_ route: String, _ parameters: [String: String], as token: String?) async throws -> (any Encodable & Sendable, StatementTally) {
                let parts = ClientCallParts(tenant: tenant, policy: RoomPolicy(ttlSeconds: 600, capacity: 100),
                                            parameters: WireParameters(parameters.merging(["roomId": id]) { $1 }),
                                            headers: token.map { ["authorization": $0] } ?? [:], clientAddress: "127.0.0.1",
                                            services: services, logger: instance.logger)
                let tally = StatementTally()
                let answer = try await StatementTally.$current.withValue(tally) { try await sealmic.handle(route: route, parts) }
                return (answer, tally)
            }

            let (joined, tally) = try await move("/room/mic/join", ["targetPosition": "2"], as: ann.token)
            #expect(joined as? Bool == true)
            // The read (the session with the room), the guarded statement and its probe.
            #expect(tally.count <= 3, "\(tally.sent)")
            #expect(try #require(result(try await client.call("/room/detail", ["roomId": .string(id)], as: host.token))).positions[2].2 == ann.userId)

            // Her own position found in the same read when she names none.
            let (left, leaving) = try await move("/room/mic/leave", [:], as: ann.token)
            #expect(left as? Bool == true)
            #expect(leaving.count <= 3, "\(leaving.sent)")

            // No login, a forged one, a stranger's: SealMic's own refusal, nothing moved.
            for token in [nil, "forged", host.token + "x"] {
                await #expect(throws: ClientError(code: 2, message: WireProtocol.sealmic.notLoggedInText)) {
                    _ = try await move("/room/mic/join", ["targetPosition": "3"], as: token)
                }
            }
            #expect(try #require(result(try await client.call("/room/detail", ["roomId": .string(id)], as: host.token))).positions.allSatisfy { $0.2 == nil })
        }
    }
}

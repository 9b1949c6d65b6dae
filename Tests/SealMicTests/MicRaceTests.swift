import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import SealMic
import Testing

/// Different mic moves racing on one room (#28): each applies once or is
/// refused, and the positions end as one serial order of the moves answered
/// errCode 0 would leave them, by the pure rules (`MicPositions`). A change
/// frees its old position and takes the new one in one statement, under the
/// one-position-per-user unique index.
@Suite struct MicRaceTests {
    struct Move {
        let path: String
        let body: [String: JSONValue]
        let actor: SealMicUser
        let command: MicCommand
    }

    @Test func racingMovesEndAsOneSerialOrder() async throws {
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\njoinRequiresIM = false\n")
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let client = SealMicClient(http: http, base: fixture.base())
            let host = try await client.login(), ann = try await client.login(), bob = try await client.login()
            for round in 0..<10 {
                let roomID = try await client.createRoom(host)
                for user in [ann, bob] { _ = try await client.call("/room/join", ["roomId": .string(roomID)], as: user.token) }
                #expect(errCode(try await client.call("/room/mic/join", ["roomId": .string(roomID), "targetPosition": 1], as: ann.token)) == 0)
                let moves = [
                    Move(path: "change", body: ["fromPosition": 1, "toPosition": 2], actor: ann, command: .change(from: 1, to: 2)),
                    Move(path: "join", body: ["targetPosition": 2], actor: bob, command: .join(position: 2)),
                    Move(path: "control", body: ["cmd": 1, "targetPosition": 2], actor: host, command: .lock(position: 2)),
                    Move(path: "join", body: ["targetPosition": 1], actor: bob, command: .join(position: 1)),
                    Move(path: "control", body: ["cmd": 3, "targetPosition": 1], actor: host, command: .mute(position: 1)),
                ]
                let answers = try await ParallelRequests.send(port: port, moves.map { move in
                    var body = move.body
                    body["roomId"] = .string(roomID)
                    return ParallelRequests.Request(path: "\(fixture.base())/room/mic/\(move.path)", body: JSONValue.object(body).jsonText,
                                                    contentType: "application/json", headers: [("Authorization", move.actor.token)])
                })
                var succeeded = Set<Int>()
                for (index, answer) in answers {
                    let code = errCode(answer)
                    #expect(code == 0 || code == 24 || code == 25 || code == 28, "round \(round), \(moves[index].command): \(answer)")
                    if code == 0 { succeeded.insert(index) }
                }
                let detail = try #require(result(try await client.call("/room/detail", ["roomId": .string(roomID)], as: host.token)))
                let observed = detail.positions.map { "\($0.1)/\($0.2 ?? "")" }
                let matches = serialOrders(of: moves.count).contains { order in
                    var positions = (0..<8).map { MicPosition(position: $0) }
                    positions[1].holder = ann.userId
                    var applied = Set<Int>()
                    for index in order {
                        let move = moves[index]
                        if case .success(let outcome) = MicPositions.decide(move.command, in: positions, actor: move.actor.userId, host: host.userId) {
                            for position in outcome.changed { positions[position.position] = position }
                            applied.insert(index)
                        }
                    }
                    return applied == succeeded && positions.map { "\($0.state)/\($0.holder ?? "")" } == observed
                }
                #expect(matches, "round \(round): successes \(succeeded.sorted()), positions \(observed)")
                // A host keeps at most 3 open rooms (errCode 26).
                #expect(errCode(try await client.call("/room/destroy", ["roomId": .string(roomID)], as: host.token)) == 0)
            }
        }
    }
}

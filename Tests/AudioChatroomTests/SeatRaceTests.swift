import AudioChatroom
import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// Different seat moves racing on one room (#28): each applies once or is
/// refused, and the seats end as one serial order of the moves that were
/// answered 200 would leave them, by the pure rules (`MicSeats`).
@Suite struct SeatRaceTests {
    struct Move {
        let name: String
        let sid: String
        let actor: AccountID
        let index: Int
        let command: SeatCommand
    }

    @Test func racingMovesEndAsOneSerialOrder() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let ann = try await SeatTests.Room.open(fixture, http)
            let guestA = try await ann.guest(http), guestB = try await ann.guest(http)
            for round in 0..<12 {
                let room = round == 0 ? ann : try await SeatTests.Room.open(fixture, http)
                let host = try #require(try await fixture.server.server().services.engine.store.room(fixture.server.id(0), room.roomID)?.owner)
                let a = SeatMember(account: guestA.accid, nick: "", avatar: "")
                let b = SeatMember(account: guestB.accid, nick: "", avatar: "")
                let moves = [
                    Move(name: "apply", sid: guestA.sid, actor: guestA.accid, index: 0, command: .apply(a)),
                    Move(name: "apply", sid: guestA.sid, actor: guestA.accid, index: 1, command: .apply(a)),
                    Move(name: "close", sid: room.hostSID, actor: host, index: 0, command: .close),
                    Move(name: "apply", sid: guestB.sid, actor: guestB.accid, index: 1, command: .apply(b)),
                    Move(name: "mask", sid: room.hostSID, actor: host, index: 2, command: .mask),
                ]
                let answers = try await ParallelRequests.send(port: port, moves.map {
                    ParallelRequests.Request(path: "\(room.base)/mic/\($0.name)", body: "sid=\($0.sid)&roomId=\(room.roomID)&index=\($0.index)")
                })
                var succeeded = Set<Int>()
                for (index, answer) in answers {
                    let code = answer["code"]?.double
                    #expect(code == 200 || code == 1101 || code == 1102, "round \(round), \(moves[index].name) \(moves[index].index): \(answer)")
                    if code == 200 { succeeded.insert(index) }
                }
                let listed = try #require(data(try await http.form("\(room.base)/mic/list", "roomId=\(room.roomID)")))
                guard case .array(let list)? = listed["list"] else { Issue.record("seats"); return }
                let observed = list.map { seat in "\(seat["status"]?.double ?? -1)/\(seat["member"]?["account"]?.string ?? "")" }

                // Some serial order of all five moves gives exactly these
                // successes and these seats.
                let matches = serialOrders(of: moves.count).contains { order in
                    var seats = (0..<8).map { MicSeat(index: $0) }
                    var applied = Set<Int>()
                    for index in order {
                        let move = moves[index]
                        if case .success(let outcome) = MicSeats.decide(move.command, seat: move.index, in: seats, by: move.actor, isHost: move.actor == host) {
                            seats[move.index] = outcome.seat
                            applied.insert(index)
                        }
                    }
                    return applied == succeeded && seats.map { "\(Double($0.status))/\($0.member?.account ?? "")" } == observed
                }
                #expect(matches, "round \(round): successes \(succeeded.sorted()), seats \(observed)")
            }
        }
    }
}

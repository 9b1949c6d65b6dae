import Foundation
import LiveQuiz
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// Different moves racing on one game (#28: per plugin, two different moves
/// racing on one room many times): two players' answers, a player's second
/// answer and the host's end of the game, sent at once. Whatever the
/// interleaving, what each was answered and what the game kept are what one
/// serial order of the four would give: an answer before the end is judged
/// (a first one counted, a second one invalid), one after it is "the game is
/// over" (1203) and counts nothing, and the end always ends the game.
@Suite struct QuizMoveRaceTests {
    enum Move { case answer(player: Int, option: Int), end }
    enum Outcome: Equatable { case counted, invalid, over, ended }

    @Test func racingMovesEndAsOneSerialOrder() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let tenant = fixture.server.id(0)
            for round in 0..<10 {
                let game = try await HostedGame.create(http, fixture.base())
                var players: [(sid: String, accid: String)] = []
                for _ in 0..<2 {
                    let player = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", "")))
                    let sid = try #require(player["sid"]?.string), accid = try #require(player["accid"]?.string)
                    _ = try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")
                    players.append((sid, accid))
                }
                #expect(try await game.host("question/publish", "questionId=1&time=1")["code"] == .number(200))
                let moves: [Move] = [.answer(player: 0, option: 0), .answer(player: 1, option: 1), .answer(player: 0, option: 1), .end]
                let answers = try await ParallelRequests.send(port: port, moves.map { move in
                    switch move {
                    case .answer(let player, let option):
                        ParallelRequests.Request(path: "\(fixture.base())/quiz/player/answer",
                                                 body: "sid=\(players[player].sid)&roomId=\(game.roomID)&questionId=1&answer=\(option)")
                    case .end:
                        ParallelRequests.Request(path: "\(fixture.base())/quiz/host/switch",
                                                 body: "roomId=\(game.roomID)&password=\(game.password)&status=2")
                    }
                })
                var observed = [Outcome?](repeating: nil, count: moves.count)
                for (index, answer) in answers {
                    switch (moves[index], answer["code"]?.int64, answer["data"]?["result"]?.int64) {
                    case (.end, 200, _): observed[index] = .ended
                    case (.answer, 200, 0?), (.answer, 200, 1?): observed[index] = .counted
                    case (.answer, 200, 2?): observed[index] = .invalid
                    case (.answer, 1203, _): observed[index] = .over
                    default: Issue.record("round \(round), move \(index): \(answer)")
                    }
                }
                let rows = try await fixture.server.database.query("""
                    SELECT accid FROM quiz_answers WHERE tenant_id = \(tenant) AND room_id = \(game.roomID)
                    """).decode(String.self)
                let counted = rows.sorted()
                let status = try await fixture.server.database.query("""
                    SELECT status FROM quiz_games WHERE tenant_id = \(tenant) AND room_id = \(game.roomID)
                    """).decode(Int.self).first
                #expect(status == 2, "round \(round): the game is over")

                let matches = serialOrders(of: moves.count).contains { order in
                    var over = false, answered = Set<Int>(), outcomes = [Outcome?](repeating: nil, count: moves.count), kept: [String] = []
                    for index in order {
                        switch moves[index] {
                        case .end:
                            over = true
                            outcomes[index] = .ended
                        case .answer(let player, _):
                            if over {
                                outcomes[index] = .over
                            } else if answered.contains(player) {
                                outcomes[index] = .invalid
                            } else {
                                answered.insert(player)
                                kept.append(players[player].accid)
                                outcomes[index] = .counted
                            }
                        }
                    }
                    return outcomes == observed && kept.sorted() == counted
                }
                #expect(matches, "round \(round): answered \(observed), kept \(counted)")
            }
        }
    }
}

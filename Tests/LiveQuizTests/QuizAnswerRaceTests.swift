import Foundation
import LiveQuiz
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// An answer and the game's end racing (#28, the class of state written
/// beside a close): an answer that waited for its player's row while the
/// host ended the game is refused as "the game is over" (1203), never
/// judged and counted after the end.
@Suite struct QuizAnswerRaceTests {
    @Test func anAnswerWaitingWhileTheGameEndsIsRefused() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let game = try await HostedGame.create(http, fixture.base())
            let sid = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", ""))?["sid"]?.string)
            _ = try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")
            #expect(try await game.host("question/publish", "questionId=1&time=1")["code"] == .number(200))
            let tenant = fixture.server.id(0)
            let database = fixture.server.database
            let answer = try await database.transaction { connection in
                // The player's row is held: the answer passes its first checks, then waits for it.
                try await connection.run("""
                    SELECT 1 FROM quiz_players WHERE tenant_id = \(tenant) AND room_id = \(game.roomID) FOR UPDATE
                    """, logger: database.logger)
                let pending = PendingRequest(port: port, path: "\(fixture.base())/quiz/player/answer",
                                             body: "sid=\(sid)&roomId=\(game.roomID)&questionId=1&answer=1")
                let waiting = try await StatementGate.until(10) {
                    try await database.query("""
                        SELECT count(*)::int FROM pg_locks WHERE locktype IN ('transactionid', 'tuple') AND NOT granted
                        """).decode(Int.self).first ?? 0 > 0
                }
                #expect(waiting, "the answer waits for the player's row")
                #expect(try await game.host("switch", "status=2")["code"] == .number(200), "the host ends the game meanwhile")
                return pending
            }
            let answered = try await answer.answer
            #expect(answered["code"] == .number(1203), "an answer after the game ended: \(answered)")
            let counted = try await database.query("""
                SELECT count(*)::int FROM quiz_answers WHERE tenant_id = \(tenant) AND room_id = \(game.roomID)
                """).decode(Int.self).first
            #expect(counted == 0, "nothing counted after the end")
        }
    }
}

import Foundation
import LiveQuiz
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// A host's switch racing the game's close (#28): the switch is made on the
/// live room, locked, so it is either done before the close or refused; it
/// is never answered as done on a game that was already over.
@Suite struct QuizSwitchRaceTests {
    @Test func aSwitchRacingTheCloseIsDoneBeforeItOrRefused() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let created = try #require(data(try await http.form("\(fixture.base())/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=10")))
            let roomID = try #require(created["roomId"]?.int64), password = try #require(created["password"]?.string)
            let host = "roomId=\(roomID)&password=\(password)"

            // The switch to live waits at the gate, before its UPDATE locks any row.
            let gate = try await StatementGate(fixture.server.database, table: "quiz_games", on: "UPDATE", level: "STATEMENT",
                                               when: "current_query() LIKE '%status < 2%'")
            let toLive = PendingRequest(port: port, path: "\(fixture.base())/quiz/host/switch", body: "\(host)&status=1")
            #expect(try await StatementGate.until(10) { try await gate.waiting() == 1 }, "the switch reached the gate")
            let over = PendingRequest(port: port, path: "\(fixture.base())/quiz/host/switch", body: "\(host)&status=2")
            _ = try await StatementGate.until(5) {
                if over.isAnswered { return true }
                return try await gate.waitingForRows() > 0
            }
            let closedFirst = over.isAnswered
            try await gate.open()
            let switched = try await toLive.answer, ended = try await over.answer
            #expect(ended["code"] == .number(200), "\(ended)")
            #expect(!(closedFirst && switched["code"] == .number(200)), "the switch was answered as done on a game closed before it: \(switched)")
            let status = try await fixture.server.database.query("""
                SELECT status FROM quiz_games WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(roomID)
                """).decode(Int.self).first
            #expect(status == 2, "the game is over")
        }
    }
}

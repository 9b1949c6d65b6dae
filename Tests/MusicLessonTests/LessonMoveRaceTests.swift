import Foundation
import MusicLesson
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// Different moves racing on one lesson (#28: per plugin, two different
/// moves racing on one room many times): three whiteboard appends by both
/// parties against a limit of two packets, and the teacher's close, sent at
/// once. What each was answered and what the whiteboard kept are what one
/// serial order of the four would give: an append before the close is
/// stored until the board is full (809), one after it is refused and stores
/// nothing, and the close always closes.
@Suite struct LessonMoveRaceTests {
    enum Move { case append(teacher: Bool, seq: Int), close }
    enum Outcome: Equatable { case stored, full, refused, closed }

    @Test func racingMovesEndAsOneSerialOrder() async throws {
        let fixture = try await LessonFixture(table: LessonFixture.table + "whiteboardPackets = 2\n")
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let tenant = fixture.server.id(0)
            for round in 0..<10 {
                let booking = try await Booking.make(http, fixture)
                #expect(try await booking.enter(http, fixture, as: booking.teacher)["code"] == .number(200))
                let moves: [Move] = [.append(teacher: true, seq: 1), .append(teacher: false, seq: 1), .append(teacher: true, seq: 2), .close]
                func author(_ teacher: Bool) -> String { teacher ? booking.teacher : booking.student }
                let answers = try await ParallelRequests.send(port: port, moves.map { move in
                    switch move {
                    case .append(let teacher, let seq):
                        ParallelRequests.Request(path: "\(fixture.base())/room/whiteboard/append",
                                                 body: "sid=\(author(teacher))&roomId=\(booking.roomID)&seq=\(seq)&data=1:0.1,0.1,255;")
                    case .close:
                        ParallelRequests.Request(path: "\(fixture.base())/teacher/room/close", body: "sid=\(booking.teacher)&roomId=\(booking.roomID)")
                    }
                })
                var observed = [Outcome?](repeating: nil, count: moves.count)
                for (index, answer) in answers {
                    switch (moves[index], answer["code"]?.int64, answer["data"]?["stored"]) {
                    case (.close, 200, _): observed[index] = .closed
                    case (.append, 200, .bool(true)?): observed[index] = .stored
                    case (.append, 809, _): observed[index] = .full
                    case (.append, let code?, _) where code != 200: observed[index] = .refused
                    default: Issue.record("round \(round), move \(index): \(answer)")
                    }
                }
                let kept = try await fixture.server.database.query("""
                    SELECT author, seq FROM music_lesson_whiteboard WHERE tenant_id = \(tenant) AND room_id = \(booking.roomID)
                    """).decode((String, Int64).self).map { "\($0)/\($1)" }.sorted()

                let matches = serialOrders(of: moves.count).contains { order in
                    var closed = false, board: [String] = [], outcomes = [Outcome?](repeating: nil, count: moves.count)
                    for index in order {
                        switch moves[index] {
                        case .close:
                            closed = true
                            outcomes[index] = .closed
                        case .append(let teacher, let seq):
                            if closed {
                                outcomes[index] = .refused
                            } else if board.count >= 2 {
                                outcomes[index] = .full
                            } else {
                                board.append("\(author(teacher))/\(seq)")
                                outcomes[index] = .stored
                            }
                        }
                    }
                    return outcomes == observed && board.sorted() == kept
                }
                #expect(matches, "round \(round): answered \(observed), kept \(kept)")
            }
        }
    }
}

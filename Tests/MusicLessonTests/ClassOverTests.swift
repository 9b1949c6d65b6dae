import Foundation
import MusicLesson
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// Class over reaches the student through the IM provider, from the server,
/// on close, on expiry and on lapse, once each.
@Suite struct ClassOverTests {
    /// The student's socket, logged in (its token is a bcrypt to check, so
    /// the login takes a while: a notification sent meanwhile is not for it).
    func connect(_ booking: Booking, _ fixture: LessonFixture, port: Int) async throws -> IMTestClient {
        let client = IMTestClient(port: port, tenant: fixture.server.id(0), accid: booking.student, token: md5("pw"))
        _ = try await client.next("ready")
        return client
    }

    @Test func onCloseTheStudentHearsClassOverOnce() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let booking = try await Booking.make(http, fixture)
            let student = try await connect(booking, fixture, port: try #require(http.client.port))
            _ = try await booking.enter(http, fixture, as: booking.teacher)
            // The teacher's whiteboard is relayed to the student.
            _ = try await http.form("\(fixture.base())/room/whiteboard/append", "sid=\(booking.teacher)&roomId=\(booking.roomID)&seq=1&data=6:")
            let relayed = try await student.next("notification")
            #expect(JSONValue.parse(relayed["attach"]?.string ?? "")?["data"]?["data"]?.string == "6:")

            _ = try await http.form("\(fixture.base())/teacher/room/close", "accid=\(booking.teacher)&roomid=\(booking.roomID)")
            let notice = try await student.next("notification")
            #expect(notice["from"]?.string == booking.teacher)
            #expect(notice["attach"]?.string == #"{"command":1,"data":{"roomId":"\#(booking.roomID)"}}"#)
            #expect(try await student.expectSilence(for: .milliseconds(500)).filter { $0["type"]?.string == "notification" }.isEmpty, "once")
            _ = try await student.close()
        }
    }

    @Test func onExpiryAndOnLapseTheStudentHearsClassOverOnce() async throws {
        let clock = ManualClock()
        let fixture = try await LessonFixture(clock: clock)
        try await fixture.server.live { http in
            let opened = try await Booking.make(http, fixture)
            let student = try await connect(opened, fixture, port: try #require(http.client.port))
            _ = try await opened.enter(http, fixture, as: opened.teacher)
            clock.advance(by: 24 * 3_600 + 1)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await student.next("notification")["attach"]?.string == #"{"command":1,"data":{"roomId":"\#(opened.roomID)"}}"#)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await student.expectSilence(for: .milliseconds(500)).filter { $0["type"]?.string == "notification" }.isEmpty, "once")
            _ = try await student.close()

            // A booking the teacher never opens lapses after 30 minutes.
            let unopened = try await Booking.make(http, fixture)
            let waiting = try await connect(unopened, fixture, port: try #require(http.client.port))
            clock.advance(by: 30 * 60 + 1)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await waiting.next("notification")["attach"]?.string == #"{"command":1,"data":{"roomId":"\#(unopened.roomID)"}}"#)
            let room = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(unopened.roomID)", key: fixture.server.operatorKey)
            #expect(room.json["room"]?["closeReason"]?.string == "lapsed")
            _ = try await waiting.close()
        }
    }
}

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
    func connect(_ booking: Booking, _ fixture: LessonFixture, port: Int) -> IMTestClient {
        IMTestClient(port: port, path: "/t/\(fixture.server.id(0))/im/ws?accid=\(booking.student)&token=\(md5("pw"))")
    }

    @Test func onCloseTheStudentHearsClassOverOnce() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let booking = try await Booking.make(http, fixture)
            let student = connect(booking, fixture, port: try #require(http.client.port))
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
            let student = connect(opened, fixture, port: try #require(http.client.port))
            _ = try await opened.enter(http, fixture, as: opened.teacher)
            clock.advance(by: 24 * 3_600 + 1)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await student.next("notification")["attach"]?.string == #"{"command":1,"data":{"roomId":"\#(opened.roomID)"}}"#)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await student.expectSilence(for: .milliseconds(500)).filter { $0["type"]?.string == "notification" }.isEmpty, "once")
            _ = try await student.close()

            // A booking the teacher never opens lapses after 30 minutes.
            let unopened = try await Booking.make(http, fixture)
            let waiting = connect(unopened, fixture, port: try #require(http.client.port))
            clock.advance(by: 30 * 60 + 1)
            _ = try await fixture.server.server().sweeper.sweepOnce()
            #expect(try await waiting.next("notification")["attach"]?.string == #"{"command":1,"data":{"roomId":"\#(unopened.roomID)"}}"#)
            let room = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(unopened.roomID)", key: fixture.server.operatorKey)
            #expect(room.json["room"]?["closeReason"]?.string == "lapsed")
            _ = try await waiting.close()
        }
    }
}

/// music-lesson passes the plugin conformance suite. A lesson belongs to its
/// teacher: the driver keeps each booking's teacher credentials.
@Suite struct MusicLessonConformanceTests {
    final class Driver: ConformanceDriver {
        let teachers = Mutex<[RoomID: ConformanceAccount]>([:])
        var plugin: AnyRoomPlugin { AnyRoomPlugin(MusicLessonPlugin()) }
        /// The booking must not lapse before the TTL the suite checks.
        var pluginTable: String { "[plugins.music-lesson]\nopenDeadline = \"25h\"\n" }

        func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount {
            let accid = "c" + uniqueID()
            let answer = try await client.post("/user/reg", form: ["accid": accid, "nickname": "C", "password": md5("pw")])
            return ConformanceAccount(accid: accid, credential: answer.json["data"]?["sid"]?.string ?? "")
        }

        func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID {
            let answer = try await client.post("/room/create", form: ["sid": owner.credential])
            guard let lesson = answer.json["data"], let id = lesson["roomId"]?.int64, let teacher = lesson["teacherAccid"]?.string,
                  let password = lesson["teacherPassword"]?.string else { throw Unexpected(answer: "\(answer.json)") }
            let login = try await client.post("/user/check", form: ["accid": teacher, "password": md5(password)])
            teachers.withLock { $0[id] = ConformanceAccount(accid: teacher, credential: login.json["data"]?["sid"]?.string ?? "") }
            return id
        }

        func owner(of roomID: RoomID, createdBy creator: ConformanceAccount) async throws -> ConformanceAccount {
            guard let teacher = teachers.withLock({ $0[roomID] }) else { throw Unexpected(answer: "no booking \(roomID)") }
            return teacher
        }

        func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/teacher/room/close", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/enter", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.shared()).run(check)
        #expect(held.count == ConformanceSuite.expectations[check], "every expectation of \(check) held: \(held)")
    }
}

import Crypto
import Foundation
import MusicLesson
import PluginConformance
import RoomCore
import RoomProviders
import RoomTestSupport
import Synchronization
import Testing

/// A live server with music-lesson for two tenants, as the demo tenant has it.
struct LessonFixture {
    let server: ServerFixture
    static let registry = PluginRegistry([AnyRoomPlugin(MusicLessonPlugin())])
    static let table = "[plugins.music-lesson]\naccidAsSid = true\n"

    init(table: String = Self.table, clock: any RoomClock = ManualClock()) async throws {
        server = try await ServerFixture(pluginTables: [table, table], registry: Self.registry, clock: clock, sweepInterval: .seconds(3_600))
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/music-lesson" }
}

func md5(_ text: String) -> String { Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }


/// A booked lesson: the student's and the teacher's credentials.
struct Booking {
    let roomID: Int64
    let student: String
    let teacher: String
    let teacherPassword: String

    static func make(_ http: HTTP, _ fixture: LessonFixture, student: String = "s" + uniqueID()) async throws -> Booking {
        _ = try await http.form("\(fixture.base())/user/reg", "accid=\(student)&nickname=Stu&password=\(md5("pw"))")
        let lesson = try #require(data(try await http.form("\(fixture.base())/room/create", "accid=\(student)")))
        return Booking(roomID: try #require(lesson["roomId"]?.int64), student: student,
                       teacher: try #require(lesson["teacherAccid"]?.string), teacherPassword: try #require(lesson["teacherPassword"]?.string))
    }

    func enter(_ http: HTTP, _ fixture: LessonFixture, as accid: String) async throws -> JSONValue {
        try await http.form("\(fixture.base())/room/enter", "sid=\(accid)&roomId=\(roomID)")
    }
}

@Suite struct MusicLessonFlowTests {
    /// The shipped apps' flow with their exact form bodies, every answer's shape and types.
    @Test func theShippedAppsFlow() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let base = fixture.base()
            let student = "stu" + uniqueID()
            let password = md5("secret")

            let reg = try #require(data(try await http.form("\(base)/user/reg", "accid=\(student)&nickname=Student&password=\(password)")))
            #expect(reg["accid"]?.string == student && reg["nickname"]?.string == "Student")
            #expect(reg["imToken"]?.string == password, "the IM account logs in with the password's MD5")
            #expect(reg["sid"]?.string?.count == 48 && reg["availableAt"]?.int64 != nil)

            let check = try #require(data(try await http.form("\(base)/user/check", "accid=\(student)&nickname=Student&password=\(password)")))
            #expect(check["accid"]?.string == student && check["userType"] == .number(0) && check["sid"]?.string != nil)

            let lesson = try #require(data(try await http.form("\(base)/room/create", "accid=\(student)")))
            let roomID = try #require(lesson["roomId"]?.int64)
            let teacher = try #require(lesson["teacherAccid"]?.string)
            let teacherPassword = try #require(lesson["teacherPassword"]?.string)
            #expect(teacher.hasPrefix("t") && teacher.count == 9 && teacherPassword.count == 8)
            #expect(lesson["teacherName"]?.string?.isEmpty == false && lesson["studentAccid"]?.string == student && lesson["studentName"]?.string == "Student")
            if case .number = lesson["roomId"] {} else { Issue.record("roomId is a JSON number") }

            let query = try #require(data(try await http.form("\(base)/room/query", "accid=\(student)")))
            #expect(query["total"] == .number(1))
            guard case .array(let lessons)? = query["list"] else { Issue.record("list"); return }
            #expect(lessons.first?["roomId"] == .number(Double(roomID)))
            #expect(lessons.first?["teacherPassword"]?.string == teacherPassword, "#16: the booking student can hand the password over again")
            let sealed = try await fixture.server.database.query("""
                SELECT teacher_password_sealed FROM music_lessons WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(roomID)
                """).decode(String?.self).first ?? nil
            #expect(sealed?.hasPrefix("v1:") == true && sealed?.contains(teacherPassword) == false, "kept sealed, never in clear")
            let leaks = try await fixture.server.database.query("""
                SELECT (SELECT count(*) FROM room_events WHERE detail::text LIKE '%' || \(teacherPassword) || '%')
                     + (SELECT count(*) FROM rooms WHERE attributes::text LIKE '%' || \(teacherPassword) || '%')
                """).decode(Int64.self).first
            #expect(leaks == 0, "nor in the room's row or its events")

            let teacherCheck = try #require(data(try await http.form("\(base)/user/check", "accid=\(teacher)&nickname=&password=\(md5(teacherPassword))")))
            #expect(teacherCheck["userType"] == .number(1))
            let teacherQuery = try #require(data(try await http.form("\(base)/teacher/room/query", "accid=\(teacher)")))
            guard case .array(let taught)? = teacherQuery["list"] else { Issue.record("teacher list"); return }
            #expect(teacherQuery["total"] == .number(1) && taught.first?["studentAccid"]?.string == student && taught.first?["teacherPassword"] == nil)

            let teacherIn = try #require(data(try await http.form("\(base)/room/enter", "sid=\(teacher)&roomId=\(roomID)")))
            #expect(teacherIn["role"]?.string == "teacher" && teacherIn["peerAccid"]?.string == student && teacherIn["openedAt"]?.int64 != nil)
            let studentIn = try #require(data(try await http.form("\(base)/room/enter", "sid=\(student)&roomId=\(roomID)")))
            #expect(studentIn["role"]?.string == "student" && studentIn["peerAccid"]?.string == teacher)

            let drawn = try #require(data(try await http.form("\(base)/room/whiteboard/append",
                                                              "sid=\(teacher)&roomId=\(roomID)&seq=1&data=1:0.1,0.1,255;3:0.2,0.2,255;")))
            #expect(drawn["seq"] == .number(1) && drawn["stored"] == .bool(true))
            let replay = try #require(data(try await http.form("\(base)/room/whiteboard/replay", "sid=\(student)&roomId=\(roomID)")))
            guard case .array(let pages)? = replay["pages"] else { Issue.record("pages"); return }
            #expect(pages.first?["pageIndex"] == .number(0) && replay["doc"] == .null)

            let closed = try await http.form("\(base)/teacher/room/close", "accid=\(teacher)&roomid=\(roomID)")
            #expect(closed["code"] == .number(200) && closed["data"] == .object([:]))
            #expect(try #require(data(try await http.form("\(base)/room/query", "accid=\(student)")))["total"] == .number(0))
            // #18: the lesson opened with the teacher's entry and was over at the close, on the timeline as the plugin's events.
            let kinds = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), roomID).map(\.kind.stored)
            #expect(kinds.filter { $0.hasPrefix("music-lesson.") } == [MusicLessonPlugin.lessonOpened, MusicLessonPlugin.lessonOver])
        }
    }

    @Test func accountErrors() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let base = fixture.base()
            let accid = "a" + uniqueID()
            #expect(try await http.form("\(base)/user/reg", "accid=\(accid)&nickname=A&password=plain")["code"] == .number(400))
            #expect(try await http.form("\(base)/user/reg", "accid=\(accid)&password=\(md5("x"))")["code"] == .number(400))
            #expect(try await http.form("\(base)/user/reg", "accid=bad%20id&nickname=A&password=\(md5("x"))")["code"] == .number(400))
            #expect(try await http.form("\(base)/user/reg", "accid=\(accid)&nickname=A&password=\(md5("x"))")["code"] == .number(200))
            #expect(try await http.form("\(base)/user/reg", "accid=\(accid)&nickname=A&password=\(md5("x"))")["code"] == .number(901))
            #expect(try await http.form("\(base)/user/check", "accid=nobody\(accid)&password=\(md5("x"))")["code"] == .number(902))
            #expect(try await http.form("\(base)/user/check", "accid=\(accid)&password=\(md5("y"))")["code"] == .number(903))
            let bare = try #require(data(try await http.form("\(base)/user/check", "accid=\(accid)")))
            #expect(bare["sid"] == nil, "no password, no session")
            #expect(try await http.form("\(base)/room/create", "accid=nobody")["code"] == .number(401))
            #expect(try await http.form("\(base)/teacher/room/query", "accid=\(accid)")["code"] == .number(401), "a student is not a teacher")
        }
    }

    @Test func teacherFirstStrangersRefusedClosedLessons() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let booking = try await Booking.make(http, fixture)
            #expect(try await booking.enter(http, fixture, as: booking.student)["code"] == .number(808))
            let stranger = "x" + uniqueID()
            _ = try await http.form("\(fixture.base())/user/reg", "accid=\(stranger)&nickname=X&password=\(md5("pw"))")
            #expect(try await booking.enter(http, fixture, as: stranger)["code"] == .number(403))
            #expect(try await booking.enter(http, fixture, as: booking.teacher)["code"] == .number(200))
            #expect(try await booking.enter(http, fixture, as: booking.student)["code"] == .number(200))
            #expect(try await booking.enter(http, fixture, as: stranger)["code"] == .number(403))
            #expect(try await http.form("\(fixture.base())/room/enter", "sid=\(stranger)&roomId=999")["code"] == .number(804))

            let other = try await Booking.make(http, fixture)
            #expect(try await http.form("\(fixture.base())/teacher/room/close", "accid=\(other.teacher)&roomid=\(booking.roomID)")["code"] == .number(804),
                    "not this teacher's lesson")
            #expect(try await http.form("\(fixture.base())/teacher/room/close", "accid=\(booking.teacher)&roomId=\(booking.roomID)")["code"] == .number(200))
            #expect(try await booking.enter(http, fixture, as: booking.teacher)["code"] == .number(801))
        }
    }

    @Test func twoConcurrentBookingsMakeOneLesson() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID()
            _ = try await http.form("\(fixture.base())/user/reg", "accid=\(student)&nickname=S&password=\(md5("pw"))")
            let codes = try await withThrowingTaskGroup(of: Int64?.self) { group in
                for _ in 0..<2 { group.addTask { try await http.form("\(fixture.base())/room/create", "accid=\(student)")["code"]?.int64 } }
                return try await group.reduce(into: [Int64?]()) { $0.append($1) }
            }
            #expect(codes.sorted { ($0 ?? 0) < ($1 ?? 0) } == [200, 807])
            #expect(try #require(data(try await http.form("\(fixture.base())/room/query", "accid=\(student)")))["total"] == .number(1))
            #expect(try await http.form("\(fixture.base())/room/create", "accid=\(student)")["code"] == .number(807))
        }
    }

    /// #16, finding 7: a lesson's whiteboard is bounded, so its replay is too.
    @Test func aLessonsWhiteboardKeepsAtMostItsLimitOfPackets() async throws {
        let fixture = try await LessonFixture(table: LessonFixture.table + "whiteboardPackets = 3\n")
        try await fixture.server.live { http in
            let booking = try await Booking.make(http, fixture)
            _ = try await booking.enter(http, fixture, as: booking.teacher)
            for seq in 1...3 {
                let stored = try await http.form("\(fixture.base())/room/whiteboard/append", "sid=\(booking.teacher)&roomId=\(booking.roomID)&seq=\(seq)&data=1:0.1,0.1,255;")
                #expect(stored["data"]?["stored"] == .bool(true))
            }
            let refused = try await http.form("\(fixture.base())/room/whiteboard/append", "sid=\(booking.student)&roomId=\(booking.roomID)&seq=1&data=1:0.1,0.1,255;")
            #expect(refused["code"] == .number(809))
            #expect(refused["msg"]?.string?.contains("3 packets") == true)
            #expect(try await fixture.server.database.query("""
                SELECT count(*)::int FROM music_lesson_whiteboard WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(booking.roomID)
                """).decode(Int.self).first == 3)
        }
    }

    @Test func whiteboardAppendsAreValidatedStoredOnceAndRelayed() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let booking = try await Booking.make(http, fixture)
            let base = fixture.base()
            func append(_ accid: String, _ seq: Int, _ body: String) async throws -> JSONValue {
                try await http.form("\(base)/room/whiteboard/append", "sid=\(accid)&roomId=\(booking.roomID)&seq=\(seq)&data=\(body)")
            }
            #expect(try await append(booking.teacher, 1, "1:0.1,0.1,255;")["code"] == .number(808), "not before the classroom opens")
            _ = try await booking.enter(http, fixture, as: booking.teacher)
            let bad = try await append(booking.teacher, 1, "1:0.1,0.1,255;2:2,0.1,255;")
            #expect(bad["code"] == .number(400) && bad["msg"]?.string?.contains("command 2") == true)
            #expect(try await append(booking.teacher, 1, "1:0.1,0.1,255;")["data"]?["stored"] == .bool(true))
            #expect(try await append(booking.teacher, 1, "1:0.9,0.9,255;")["data"]?["stored"] == .bool(false), "a repeated seq is accepted once")
            #expect(try await append(booking.student, 1, "1:0.5,0.5,65280;3:0.6,0.6,65280;")["data"]?["stored"] == .bool(true))
            #expect(try await append(booking.teacher, 2, "3:0.2,0.2,255;")["code"] == .number(200))
            // #41: a student the teacher kicked for a while draws nothing meanwhile.
            let kicked = try await http.form("\(base)/teacher/room/kick", "sid=\(booking.teacher)&roomId=\(booking.roomID)&account=\(booking.student)&durationSeconds=600")
            #expect(kicked["code"] == .number(200), "\(kicked)")
            #expect(try await append(booking.student, 2, "1:0.7,0.7,65280;")["code"] == .number(403), "the kicked student's append is refused")

            #expect(try await fixture.server.database.query("""
                SELECT count(*)::int FROM music_lesson_whiteboard WHERE tenant_id = \(fixture.server.id(0)) AND room_id = \(booking.roomID)
                """).decode(Int.self).first == 3, "refused and repeated appends stored nothing")
            let replay = try #require(data(try await http.form("\(base)/room/whiteboard/replay", "sid=\(booking.teacher)&roomId=\(booking.roomID)")))
            guard case .array(let strokes)? = replay["pages"]?.arrayElement(0)?["strokes"] else { Issue.record("strokes"); return }
            #expect(strokes.map { $0["uid"]?.string } == [booking.teacher, booking.student])
            #expect(strokes.first?["points"] == .array([.array([.number(0.1), .number(0.1)]), .array([.number(0.2), .number(0.2)])]))
        }
    }
}

extension JSONValue {
    func arrayElement(_ index: Int) -> JSONValue? {
        guard case .array(let items) = self, items.indices.contains(index) else { return nil }
        return items[index]
    }
}

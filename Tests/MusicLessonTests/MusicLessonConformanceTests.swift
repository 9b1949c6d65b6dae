import Foundation
import MusicLesson
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

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


        func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool {
            try await client.post("/teacher/room/kick", form: ["sid": host.credential, "roomId": "\(roomID)", "account": account.accid, "durationSeconds": "\(seconds)"]).json["code"]?.int64 == 200
        }

        func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool {
            try await client.post("/room/enter", form: ["sid": account.credential, "roomId": "\(roomID)"]).json["code"]?.int64 == 200
        }

        /// A lesson made by an operator: an existing teacher (from an earlier
        /// booking, closed) and a student, named in `options.student`.
        func adminRoom(_ client: PluginClient) async throws -> AdminRoom {
            let first = try await makeAccount(client)
            let booked = try await createRoom(client, owner: first)
            let teacher = try await owner(of: booked, createdBy: first)
            guard try await dissolveRoom(client, roomID: booked, as: teacher) else { throw Unexpected(answer: "could not close booking \(booked)") }
            let student = try await makeAccount(client)
            return AdminRoom(owner: teacher, options: ["student": .string(student.accid)], requiredOption: "options.student", guests: [student])
        }

        /// The teacher opens the classroom, the student enters, and both draw.
        func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool {
            guard let student = room.guests.first, try await joinRoom(client, roomID: roomID, as: room.owner),
                  try await joinRoom(client, roomID: roomID, as: student) else { return false }
            let stroke = "1:0.1,0.1,255;3:0.2,0.2,255;"
            let drawn = try await client.post("/room/whiteboard/append", form: ["sid": student.credential, "roomId": "\(roomID)", "seq": "1", "data": stroke])
            return drawn.json["code"]?.int64 == 200
        }

        struct Unexpected: Error { let answer: String }
    }

    @Test(arguments: ConformanceSuite.Check.allCases)
    func conformance(_ check: ConformanceSuite.Check) async throws {
        let held = try await ConformanceSuite(driver: Driver(), database: try await TestDatabase.forConformance()).run(check)
        #expect(!held.isEmpty, "every expectation of \(check) held: \(held)")
    }
}

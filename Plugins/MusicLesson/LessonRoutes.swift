import Foundation
import HummingbirdBcrypt
import RoomKit

/// `/room/create` (book), `/room/query`, `/teacher/room/query`,
/// `/teacher/room/close`, `/room/enter`.
enum LessonRoutes {
    typealias Settings = MusicLessonPlugin.Settings

    struct Lesson: Encodable, Sendable {
        let roomId: Int64
        let teacherAccid: String
        let teacherName: String
        let teacherPassword: String
        let studentAccid: String
        let studentName: String
    }

    /// The teacher's view: no password.
    struct TeacherLesson: Encodable, Sendable {
        let roomId: Int64
        let teacherAccid: String
        let teacherName: String
        let studentAccid: String
        let studentName: String
    }

    struct Listing<Item: Encodable & Sendable>: Encodable, Sendable {
        let total: Int
        let list: [Item]
    }

    struct Entered: Encodable, Sendable {
        let roomId: Int64
        let role: String
        let peerAccid: String
        let openedAt: Int64
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/room/create", handle: roomCreate),
        ClientRoute("/room/query", effect: .reads, handle: roomQuery),
        ClientRoute("/teacher/room/query", effect: .reads, handle: teacherRoomQuery),
        ClientRoute("/teacher/room/close", handle: teacherRoomClose),
        ClientRoute("/teacher/room/kick", handle: teacherRoomKick),
        ClientRoute("/room/enter", handle: roomEnter),
    ]

    /// Books a lesson: a teacher account (its password shown this once),
    /// and a room reserved for the two until `openDeadline`.
    static func roomCreate(_ call: ClientCall<Settings>) async throws -> Lesson {
        let student = try await AccountRoutes.account(call, as: .student)
        let store = LessonStore(tables: call.tables)
        guard try await store.active(student: student.accid).isEmpty else { throw LessonCodes.alreadyBooked() }
        // Counted before the teacher exists, so a refusal leaves nothing to undo.
        try await call.throttle(.newRoom)
        let (teacher, password) = try await createTeacher(call)
        do {
            let sealed = try await call.secrets.seal(password)
            let room = try await call.createRoom(
                NewRoom(name: "lesson of \(student.accid)", owner: teacher.accid),
                creating: LessonCreation(student: student.accid, sealedTeacherPassword: sealed), of: MusicLessonPlugin(),
                by: .account(student.accid), counted: true)
            return Lesson(roomId: room.id, teacherAccid: teacher.accid, teacherName: teacher.nickname, teacherPassword: password,
                          studentAccid: student.accid, studentName: student.nickname)
        } catch let refusal where refusal is ClientError || refusal is RoomError {
            // A booking refused for sure (a concurrent one won): its teacher
            // never existed. When the outcome is unknown (the connection
            // dropped around the commit) the teacher stays: deleting the
            // teacher of a booking that did commit would strand the lesson.
            try? await call.accounts.delete(teacher.accid)
            throw refusal
        }
    }

    static func roomQuery(_ call: ClientCall<Settings>) async throws -> Listing<Lesson> {
        let student = try await AccountRoutes.account(call, as: .student)
        let lessons = try await LessonStore(tables: call.tables).active(student: student.accid)
        // The booking student (only) sees the teacher's password again, to
        // hand it over, as the seed's app does at every login.
        var list: [Lesson] = []
        for lesson in lessons {
            var password = ""
            if let sealed = lesson.sealedTeacherPassword {
                password = try await call.secrets.open(sealed) ?? ""
            }
            list.append(Lesson(roomId: lesson.roomID, teacherAccid: lesson.teacher.accid, teacherName: lesson.teacher.nickname,
                               teacherPassword: password, studentAccid: lesson.student.accid, studentName: lesson.student.nickname))
        }
        return Listing(total: list.count, list: list)
    }

    static func teacherRoomQuery(_ call: ClientCall<Settings>) async throws -> Listing<TeacherLesson> {
        let teacher = try await AccountRoutes.account(call, as: .teacher)
        let lessons = try await LessonStore(tables: call.tables).active(teacher: teacher.accid)
        return Listing(total: lessons.count, list: lessons.map {
            TeacherLesson(roomId: $0.roomID, teacherAccid: $0.teacher.accid, teacherName: $0.teacher.nickname,
                          studentAccid: $0.student.accid, studentName: $0.student.nickname)
        })
    }

    static func teacherRoomClose(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let teacher = try await AccountRoutes.account(call, as: .teacher)
        let roomID = try roomID(call.parameters)
        guard let lesson = try await LessonStore(tables: call.tables).lesson(roomID), lesson.teacher.accid == teacher.accid else {
            throw ClientError(code: NetEase.roomNotFound, message: "room \(roomID) is not a lesson of yours")
        }
        _ = try await call.rooms.dissolve(roomID, by: .account(teacher.accid))
        return EmptyObject()
    }

    /// The lesson's teacher takes an account out of the classroom (#29).
    static func teacherRoomKick(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let teacher = try await AccountRoutes.account(call, as: .teacher)
        let roomID = try roomID(call.parameters)
        let kick = try HostKick(call.parameters)
        guard let lesson = try await LessonStore(tables: call.tables).lesson(roomID), lesson.teacher.accid == teacher.accid else {
            throw ClientError(code: NetEase.roomNotFound, message: "room \(roomID) is not a lesson of yours")
        }
        try await call.rooms.kick(roomID, kick, by: teacher.accid)
        return EmptyObject()
    }

    /// The teacher opens the classroom; the student may enter after.
    static func roomEnter(_ call: ClientCall<Settings>) async throws -> Entered {
        let account = try await call.caller()
        let roomID = try roomID(call.parameters)
        guard let lesson = try await LessonStore(tables: call.tables).lesson(roomID) else {
            throw ClientError(code: NetEase.roomNotFound, message: "no lesson \(roomID)")
        }
        let isTeacher = account.accid == lesson.teacher.accid
        guard isTeacher || account.accid == lesson.student.accid else {
            throw ClientError(code: NetEase.forbidden, message: "this lesson is for its teacher and its student only")
        }
        let room = try await call.rooms.live(roomID)
        if !isTeacher, room.reservation?.claimedAt == nil {
            throw ClientError(code: LessonCodes.teacherNotIn, message: "the teacher has not opened the classroom yet")
        }
        let joined = try await call.rooms.join(roomID, account: account.accid, role: isTeacher ? "teacher" : "student").room
        let opened = joined.reservation?.claimedAt ?? joined.createdAt
        return Entered(roomId: roomID, role: isTeacher ? "teacher" : "student",
                       peerAccid: isTeacher ? lesson.student.accid : lesson.teacher.accid, openedAt: opened.epochMilliseconds)
    }

    /// `roomId`, or `roomid` as the seed's close request names it.
    static func roomID(_ parameters: WireParameters) throws -> RoomID {
        if parameters.string("roomId") == nil, let id = try parameters.int64("roomid") { return id }
        return try parameters.requiredInt64("roomId")
    }

    /// A teacher account `t` + 8 digits with a generated password, and its IM account.
    static func createTeacher(_ call: ClientCall<Settings>) async throws -> (Account, password: String) {
        let accounts = call.accounts
        let password = String((0..<8).map { _ in "abcdefghijkmnpqrstuvwxyz23456789".randomElement()! })
        let md5 = AccountRoutes.md5(password)
        let hash = try await SlowHash.run(tenant: call.tenant.id) { Bcrypt.hash(md5, cost: AccountRoutes.bcryptCost) }
        for _ in 0..<5 {
            let digits = String(UInt64.random(in: 10_000_000...99_999_999))
            let teacher = Account(accid: "t" + digits, nickname: "老师" + digits.suffix(4), role: AccountRoutes.Role.teacher.rawValue)
            guard try await accounts.create(teacher, passwordHash: hash) else { continue }
            _ = try await call.im(of: teacher).create(name: teacher.nickname, token: md5, tokenHash: hash)
            return (teacher, password)
        }
        throw RoomError.invalid(field: "accid", reason: "could not allocate a teacher account")
    }
}

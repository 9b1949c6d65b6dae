import Foundation
import RoomKit

/// Reads of lessons with their two accounts.
struct LessonStore {
    let call: ClientCall<MusicLessonPlugin.Settings>
    init(_ call: ClientCall<MusicLessonPlugin.Settings>) { self.call = call }

    struct Lesson {
        let roomID: RoomID
        let teacher: Account
        let student: Account
        /// Only the booking student's `/room/query` opens it.
        let sealedTeacherPassword: String?
    }

    static let columns: StaticString = """
        l.room_id, t.accid, t.nickname, s.accid, s.nickname, l.teacher_password_sealed
        FROM music_lessons l
        JOIN accounts t ON t.tenant_id = l.tenant_id AND t.accid = l.teacher
        JOIN accounts s ON s.tenant_id = l.tenant_id AND s.accid = l.student
        """

    func active(student: AccountID) async throws -> [Lesson] {
        try decode(try await call.tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.student = \(student) AND l.active ORDER BY l.created_at, l.room_id
            """))
    }

    func active(teacher: AccountID) async throws -> [Lesson] {
        try decode(try await call.tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.teacher = \(teacher) AND l.active ORDER BY l.created_at, l.room_id
            """))
    }

    /// The lesson of a room, active or not.
    func lesson(_ roomID: RoomID) async throws -> Lesson? {
        try decode(try await call.tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.room_id = \(roomID)
            """)).first
    }

    private func decode(_ rows: [TableRow]) throws -> [Lesson] {
        try rows.decode((Int64, String, String, String, String, String?).self).map { roomID, teacher, teacherName, student, studentName, sealed in
            Lesson(roomID: roomID, teacher: Account(accid: teacher, nickname: teacherName, role: "teacher"),
                   student: Account(accid: student, nickname: studentName, role: "student"), sealedTeacherPassword: sealed)
        }
    }
}

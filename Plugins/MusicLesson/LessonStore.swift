import Foundation
import RoomKit

/// The SQL of lessons and their whiteboards: the plugin's one store (#28,
/// item 6), on whatever `PluginTables` it is given (a route's pool, a
/// hook's transaction, a locked classroom's).
struct LessonStore {
    static let tables = ["music_lessons", "music_lesson_whiteboard"]

    let tables: PluginTables

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
        try decode(try await tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.student = \(student) AND l.active ORDER BY l.created_at, l.room_id
            """))
    }

    func active(teacher: AccountID) async throws -> [Lesson] {
        try decode(try await tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.teacher = \(teacher) AND l.active ORDER BY l.created_at, l.room_id
            """))
    }

    /// The lesson of a room, active or not.
    func lesson(_ roomID: RoomID) async throws -> Lesson? {
        try decode(try await tables.query("""
            SELECT \(unescaped: Self.columns) WHERE l.tenant_id = \(.tenant) AND l.room_id = \(roomID)
            """)).first
    }

    // MARK: booking

    /// The roles of the named accounts of this tenant (a lesson's two).
    func roles(of accounts: AccountID...) async throws -> [AccountID: String] {
        let rows = try await tables.query("""
            SELECT accid, role FROM accounts WHERE tenant_id = \(.tenant) AND accid = ANY(\(accounts))
            """)
        return Dictionary(try rows.decode((String, String).self), uniquingKeysWith: { first, _ in first })
    }

    /// The lesson's row, born with its room; false when the student has an
    /// active lesson already (refused under the unique index).
    func book(_ roomID: RoomID, student: AccountID, teacher: AccountID, sealedTeacherPassword: String?, at now: Date) async throws -> Bool {
        try await !tables.query("""
            INSERT INTO music_lessons (tenant_id, room_id, student, teacher, created_at, teacher_password_sealed)
            VALUES (\(.tenant), \(roomID), \(student), \(teacher), \(now), \(sealedTeacherPassword))
            ON CONFLICT (tenant_id, student) WHERE active DO NOTHING RETURNING room_id
            """).isEmpty
    }

    /// Ends the lessons of `ids`; returns each one's two accounts.
    func end(_ ids: RoomIDList) async throws -> [(roomID: RoomID, student: AccountID, teacher: AccountID)] {
        try await tables.query("""
            UPDATE music_lessons SET active = false
            WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids)) RETURNING room_id, student, teacher
            """).decode((Int64, String, String).self).map { ($0, $1, $2) }
    }

    // MARK: whiteboard

    func whiteboardPackets(_ roomID: RoomID) async throws -> Int {
        try await tables.query("""
            SELECT count(*)::int FROM music_lesson_whiteboard WHERE tenant_id = \(.tenant) AND room_id = \(roomID)
            """).first?.decode(Int.self) ?? 0
    }

    /// Stores an author's packet `seq`; false when it was stored before.
    func append(_ roomID: RoomID, author: AccountID, seq: Int64, data: String, at now: Date) async throws -> Bool {
        try await !tables.query("""
            INSERT INTO music_lesson_whiteboard (tenant_id, room_id, author, seq, data, created_at)
            VALUES (\(.tenant), \(roomID), \(author), \(seq), \(data), \(now))
            ON CONFLICT (tenant_id, room_id, author, seq) DO NOTHING RETURNING packet_id
            """).isEmpty
    }

    /// Every packet of the lesson, in the order stored.
    func whiteboard(_ roomID: RoomID) async throws -> [(author: AccountID, data: String)] {
        try await tables.query("""
            SELECT author, data FROM music_lesson_whiteboard
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) ORDER BY packet_id
            """).decode((String, String).self).map { ($0, $1) }
    }

    private func decode(_ rows: [TableRow]) throws -> [Lesson] {
        try rows.decode((Int64, String, String, String, String, String?).self).map { roomID, teacher, teacherName, student, studentName, sealed in
            Lesson(roomID: roomID, teacher: Account(accid: teacher, nickname: teacherName, role: "teacher"),
                   student: Account(accid: student, nickname: studentName, role: "student"), sealedTeacherPassword: sealed)
        }
    }
}

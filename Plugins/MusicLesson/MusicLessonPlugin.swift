import Foundation
import RoomKit

/// NetEase's music lesson (seed 000): students register and book lessons; a
/// teacher account is made per booking; the lesson is a room reserved for
/// that teacher and that student, which the teacher opens first; class over
/// reaches the student by P2P notification; the whiteboard is recorded.
public struct MusicLessonPlugin: RoomPlugin {
    public typealias Creation = LessonCreation
    public static let pluginID = "music-lesson"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        /// Shipped apps send the accid as `sid` (or as `accid`): accept it.
        public var accidAsSid: Bool
        /// A booking the teacher never opens lapses after this.
        public var openDeadlineSeconds: Int
        /// Whiteboard packets one lesson keeps at most; appends past it are refused (809).
        public var whiteboardPackets: Int
    }

    public init() {}

    public var id: String { Self.pluginID }

    public static let lessonOpened = "music-lesson.lesson.opened", lessonOver = "music-lesson.lesson.over"
    public var eventTypes: [String] { [Self.lessonOpened, Self.lessonOver] }
    public var tables: [String] { LessonStore.tables }

    /// The teacher's first entry opens the classroom (claims the booking).
    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        guard account == room.owner, room.reservation != nil, room.reservation?.claimedAt == nil else { return [] }
        return [.event(Self.lessonOpened, roomID: room.id, actor: .account(account), data: ["teacher": .string(account)])]
    }
    public var wire: WireProtocol { .netease }
    /// 24 h lessons of two people.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 24 * 3_600, capacity: 2) }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(
            sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
            accidAsSid: reader.bool("accidAsSid", default: false),
            openDeadlineSeconds: reader.duration("openDeadline", default: 30 * 60),
            whiteboardPackets: reader.int("whiteboardPackets", default: 20_000, in: 1...1_000_000))
    }

    /// The seed's apps that send their accid where a session belongs keep
    /// working where the tenant turns `accidAsSid` on.
    public func callerRule(settings: Settings) -> CallerRule {
        settings.accidAsSid ? .sessionOrAccid : .session
    }

    public func routes() -> [ClientRoute<Settings>] {
        AccountRoutes.routes + LessonRoutes.routes + WhiteboardRoutes.routes
    }

    public func clientError(for error: RoomError) -> ClientError? {
        switch error {
        case .full, .reservedForOthers, .banned: ClientError(code: NetEase.forbidden, message: "this lesson is for its teacher and its student only")
        default: nil
        }
    }

    /// A lesson is its teacher (the owner) and one student (`options.student`),
    /// reserved for the two until `openDeadline`: the teacher opens it first,
    /// and a lesson nobody opens lapses.
    public var creationOptions: JSONValue {
        ["type": "object", "additionalProperties": false, "required": ["student"],
         "properties": ["student": TextRules.schema(1...128, description: "the booking student's account; the owner is the teacher")]]
    }

    /// The admin API's lesson names its student; it has no teacher's
    /// password to show again (the contract names no other option).
    public func creation(from options: JSONValue) throws -> LessonCreation {
        guard let student = options["student"]?.string else { throw LessonCreation.noStudent }
        return LessonCreation(student: student, sealedTeacherPassword: nil)
    }

    public func prepareRoom(_ spec: inout NewRoom, creation: inout LessonCreation, settings: Settings, now: Date) throws {
        let student = creation.student
        guard TextRules.fits(student, 1...128) else { throw LessonCreation.noStudent }
        // Well-formed, but no student of the lesson: the same account cannot
        // be both (and is not found as a student other than its teacher).
        guard student != spec.owner else {
            throw RoomError.referenceNotFound(field: "options.student", reason: "no registered student \(student) other than the teacher")
        }
        spec.reservation = Reservation(accounts: [spec.owner, student], until: now.addingTimeInterval(TimeInterval(settings.openDeadlineSeconds)),
                                       onLapse: .close)
    }

    /// The lesson row is born with the room; a student's second active lesson
    /// is refused here, under the unique index, whatever raced it.
    public func roomCreated(_ room: Room, creation: LessonCreation, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let student = creation.student
        let store = LessonStore(tables: hook.tables)
        let roles = try await store.roles(of: room.owner, student)
        guard roles[student] == AccountRoutes.Role.student.rawValue else {
            throw RoomError.referenceNotFound(field: "options.student", reason: "no registered student \(student) in this tenant")
        }
        guard roles[room.owner] == AccountRoutes.Role.teacher.rawValue else {
            throw RoomError.referenceNotFound(field: "owner", reason: "no teacher account \(room.owner) in this tenant")
        }
        let sealedPassword = creation.sealedTeacherPassword
        guard try await store.book(room.id, student: student, teacher: room.owner, sealedTeacherPassword: sealedPassword, at: hook.now) else {
            throw LessonCodes.alreadyBooked()
        }
        return []
    }

    /// Class over, however the lesson ended (closed, expired, lapsed): the
    /// student hears it by P2P notification, stored for offline delivery.
    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await LessonStore(tables: hook.tables).end(RoomIDList(closing.map(\.id))).flatMap { roomID, student, teacher -> [OutboxMessage] in [
            .im(.notification(from: teacher, to: student, attach: LessonCodes.classOver(roomID), storeOffline: true), roomID: roomID),
            .event(Self.lessonOver, roomID: roomID, data: ["reason": .string(reason.rawValue), "teacher": .string(teacher), "student": .string(student)]),
        ] }
    }
}

/// The codes and messages music-lesson adds to the NetEase ones.
enum LessonCodes {
    static let accountExists = 901
    static let noSuchAccount = 902
    static let wrongPassword = 903
    static let activeLesson = 807
    static let teacherNotIn = 808
    static let whiteboardFull = 809

    static func alreadyBooked() -> ClientError {
        ClientError(code: activeLesson, message: "the student already has an active lesson")
    }

    /// `{"command":1,"data":{"roomId":"<id>"}}`, as the teacher's app sent it.
    static func classOver(_ roomID: RoomID) -> String {
        JSONText.encode(ClassOver(command: 1, data: .init(roomId: String(roomID))))
    }

    struct ClassOver: Encodable {
        struct Data: Encodable { let roomId: String }
        let command: Int
        let data: Data
    }
}

/// A lesson's creation data (the plugin's `Creation`): its student, and the
/// teacher's password sealed by the booking route (none for an admin's).
public struct LessonCreation: Sendable {
    let student: AccountID
    /// Sealed by the booking route (`PluginSecrets`): never in clear, never JSON.
    let sealedTeacherPassword: String?

    static let noStudent = RoomError.invalidOptions(field: "options.student", reason: "is required: the student's account, 1-128 characters")
}

extension MusicLessonPlugin {
    /// A kick or ban changes nothing this plugin keeps and tells the room
    /// nothing of its own: the engine writes it in one statement (#42).
    public func removal(settings: Settings) -> MemberRemoval? { .nothing }

    /// A mute shows on nothing of the plugin's.
    public func muting(settings: Settings) -> MemberMuting? { .nothing }
}

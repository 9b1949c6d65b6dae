import Foundation
import RoomKit

/// A one-to-one call, the scenario every RTC vendor ships beside chatrooms
/// (NetEase's and RongCloud's call kits): a caller rings an account, the
/// callee accepts or rejects, the caller may cancel, either hangs up. A call
/// is a room owned by its caller and reserved for its callee until the ring's
/// deadline; unanswered, the engine closes it as `lapsed`. Both hear every
/// change as P2P notices through the tenant's IM. At most one live call per
/// account, decided by PostgreSQL (`one_to_one_call_parties`).
public struct OneToOneCallPlugin: RoomPlugin {
    public typealias Creation = CallCreation
    public static let pluginID = "one-to-one-call"

    public struct Settings: Sendable {
        public var sessionTTLSeconds: Int
        /// How long a call rings before it lapses unanswered.
        public var ringSeconds: Int
    }

    public init() {}

    public var id: String { Self.pluginID }
    /// JSON bodies (or forms) in, NetEase's `{code, data}` out, the session in `sid`.
    public var wire: WireProtocol { .netease }
    /// A call lasts at most 12 hours and holds two people.
    public var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 12 * 3_600, capacity: 2) }
    public var tables: [String] { CallStore.tables }

    public func readSettings(_ reader: SettingsReader) -> Settings {
        Settings(sessionTTLSeconds: reader.duration("sessionTTL", default: 30 * 86_400),
                 ringSeconds: reader.duration("ringTimeout", default: 30, in: 5...(2 * 86_400)))
    }

    public func routes() -> [ClientRoute<Settings>] {
        CallRoutes.routes
    }

    public func clientError(for error: RoomError) -> ClientError? {
        switch error {
        case .reservedForOthers, .full: ClientError(code: NetEase.forbidden, message: "this call is not yours to answer")
        case .closed: ClientError(code: CallCodes.ended, message: "the call has ended")
        default: nil
        }
    }

    public var creationOptions: JSONValue {
        ["type": "object", "additionalProperties": false, "required": ["callee"],
         "properties": ["callee": TextRules.schema(1...128, description: "the account rung; the owner is the caller")]]
    }

    /// The call rings its callee until `ringTimeout`: reserved for it alone,
    /// closed by the engine if nobody answers.
    public func creation(from options: JSONValue) throws -> CallCreation {
        guard let callee = options["callee"]?.string else { throw CallCreation.noCallee }
        return CallCreation(callee: callee)
    }

    public func prepareRoom(_ spec: inout NewRoom, creation: inout CallCreation, settings: Settings, now: Date) throws {
        let callee = creation.callee
        guard TextRules.fits(callee, 1...128) else { throw CallCreation.noCallee }
        // Well-formed, but naming no one to ring: the contract's schema
        // allows it, so it is "not found" (as music-lesson's student who is
        // its own teacher), not a malformed request (schemathesis, ST202).
        guard callee != spec.owner else {
            throw RoomError.referenceNotFound(field: "options.callee", reason: "no account other than the caller: an account cannot call itself")
        }
        spec.reservation = Reservation(accounts: [callee], until: now.addingTimeInterval(TimeInterval(settings.ringSeconds)), onLapse: .close)
    }

    /// The call's rows are born with its room; a caller or callee already in
    /// a live call is refused here, under the parties' key, whatever raced it.
    /// The callee hears the ring.
    public func roomCreated(_ room: Room, creation: CallCreation, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        let store = CallStore(tables: hook.tables)
        guard try await store.accountExists(creation.callee) else {
            throw RoomError.referenceNotFound(field: "options.callee", reason: "no account \(creation.callee) in this tenant")
        }
        let call = Call(roomID: room.id, caller: room.owner, callee: creation.callee)
        let seated = try await store.ring(call, at: hook.now)
        guard seated.contains(call.caller) else { throw CallCodes.callerBusy() }
        guard seated.contains(call.callee) else { throw CallCodes.calleeBusy() }
        return [CallNotices.ring(call, until: room.reservation?.until ?? hook.now)]
    }

    /// The callee's first entry answers the call; the caller hears it.
    public func memberJoined(_ account: AccountID, room: Room, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        guard room.reservation?.claimedAt == nil, let call = try await CallStore(tables: hook.tables).answer(room.id, by: account, at: hook.now) else {
            return []
        }
        return [CallNotices.accepted(call)]
    }

    /// However the call ended (hung up, rejected, cancelled, missed, its
    /// 12 hours over), both accounts are free again and hear why.
    public func roomsClosing(_ closing: [Room], reason: CloseReason, hook: HookContext<Settings>) async throws -> [OutboxMessage] {
        try await CallStore(tables: hook.tables).end(RoomIDList(closing.map(\.id)), at: hook.now).flatMap { ended in
            CallNotices.ended(ended.call, end: CallEnd(reason: reason, actor: hook.actor, call: ended.call, answered: ended.answered))
        }
    }
}

/// A call's creation data: whom it rings.
public struct CallCreation: Sendable {
    public let callee: AccountID

    public init(callee: AccountID) {
        self.callee = callee
    }

    static let noCallee = RoomError.invalidOptions(field: "options.callee", reason: "is required: the account rung, 1-128 characters")
}

extension OneToOneCallPlugin {
    /// A kick or ban changes nothing this plugin keeps and tells the room
    /// nothing of its own: the engine writes it in one statement (#42).
    public func removal(settings: Settings) -> MemberRemoval? { .nothing }

    /// A mute shows on nothing of the plugin's.
    public func muting(settings: Settings) -> MemberMuting? { .nothing }
}

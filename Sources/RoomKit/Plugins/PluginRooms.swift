import Foundation

/// The rooms a route may reach: its tenant's rooms of its own plugin (#28,
/// item 1). The engine binds it once per call, so no plugin passes a tenant
/// or its own id, and none can name another plugin's or tenant's rooms: a
/// room of either is "not found" here.
public protocol PluginRooms: Sendable {
    var pluginID: String { get }

    /// The room if it is live now (no lock: for reads).
    func live(_ roomID: RoomID) async throws -> Room

    /// The room in whatever state, or nil (for reads that show closed rooms).
    func find(_ roomID: RoomID) async throws -> Room?

    /// The room if it is live and `account` is not banned from it (#29):
    /// for routes that let an account in without a membership (a viewer's
    /// query, a quiz player's entry). Throws `RoomError.banned` otherwise.
    func enter(_ roomID: RoomID, as account: AccountID) async throws -> Room

    /// The room's members (joined, left, banned) as last committed.
    func members(_ room: Room) async throws -> [RoomMember]

    /// The room's joined members, newest first, at most `newest` of them,
    /// and also each of `always` that is joined (a seat's holder), with how
    /// many are joined in all: what an answer about a crowded room shows
    /// without reading (and sending) every member each time (#41).
    func joinedMembers(_ room: Room, newest: Int, always: [AccountID]) async throws -> (members: [RoomMember], joined: Int)

    /// What the tenant's live provider last reported of a stream (its
    /// verified callbacks), or nil.
    func stream(_ name: String) async throws -> (live: Bool, at: Date)?

    /// Is the room live now, by the engine's one definition?
    func isLive(_ room: Room) -> Bool

    /// A change of the room's plugin rows, decided on one read and written
    /// once. `caller`: the request's session (its `sid` of this plugin),
    /// refused with its `refusal` unless live.
    func change<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, members: [AccountID], caller: CallerSession?,
        _ decide: (RoomSnapshot<Row>) throws -> (RoomChange<Row>, Result)
    ) async throws -> Result

    /// A move decided on one row of the plugin's, locked, for a rule whose
    /// first-wins is that row rather than the room (a quiz answer's, on its
    /// player's row; `change` would make every player's answer race every
    /// other's). In one transaction the engine locks the row of `table`
    /// whose key is `key` in the room, then checks the room is live and
    /// `account` not banned from it, then runs `decide` with the row as
    /// locked (nil if there is none) and the plugin's tables on that
    /// transaction, and commits what `decide` wrote if it returns.
    func onLockedRow<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, key: String, enteringAs account: AccountID,
        _ decide: (Row?, PluginTables) async throws -> Result
    ) async throws -> Result

    /// The plugin's tables on the live room, locked, in one transaction.
    func mutate<Result: Sendable>(_ roomID: RoomID, _ body: (RoomTransaction) async throws -> Result) async throws -> Result

    func join(_ roomID: RoomID, account: AccountID, role: String) async throws -> JoinOutcome

    /// A join that answers something about the room (not about the joiner),
    /// read once for every join written in the same batch (#41): `answer`
    /// is given the room as the batch found it, runs after the batch's
    /// commit, and each join of the batch gets its value. `name` tells a
    /// route's answers apart from another route's. Why: when many members
    /// join at once, reading and encoding the same answer for each of them
    /// was most of a join's cost (ops/bench figure 7).
    func join<Answer: Sendable>(_ roomID: RoomID, account: AccountID, role: String, answer name: String,
                                _ answer: @escaping @Sendable (Room) async throws -> Answer) async throws -> Answer

    /// The same join by the request's session (`ClientCall.session`),
    /// resolved with the join's batch: one read of every session a batch of
    /// joins carries, not one a join (#41, ops/bench figure 7). Refused
    /// with the session's `refusal` without a live one.
    func join<Answer: Sendable>(_ roomID: RoomID, caller: CallerSession, role: String, answer name: String,
                                _ answer: @escaping @Sendable (Room) async throws -> Answer) async throws -> Answer

    /// `actor`: someone else taking the account out (a host's kick).
    func leave(_ roomID: RoomID, account: AccountID, by actor: Actor?) async throws

    /// Takes `account` out of the room (its membership ends, the plugin's
    /// leave hook runs) and, with `seconds`, keeps it out that long (#29).
    /// The room's owner or an admin may; the room's timeline and webhooks
    /// say `member.kicked`. Returns the ban, if there is one.
    @discardableResult
    func kick(_ roomID: RoomID, account: AccountID, forSeconds seconds: Int?, reason: String, by actor: Actor) async throws -> Int64?

    @discardableResult
    func dissolve(_ roomID: RoomID, by actor: Actor) async throws -> Room

    /// Dissolved by the account of `caller`'s session (refused with its
    /// `refusal` unless live), read with the room: one round trip fewer.
    @discardableResult
    func dissolve(_ roomID: RoomID, caller: CallerSession) async throws -> Room

    /// A page of the plugin's open rooms, newest first, and how many there are.
    func list(limit: Int, offset: Int) async throws -> (rooms: [ListedRoom], total: Int)
}

extension PluginRooms {
    public func change<Row: RoomRow, Result: Sendable>(
        _ roomID: RoomID, rows table: RoomRowTable<Row>, members: [AccountID] = [], caller: CallerSession? = nil,
        _ decide: (RoomSnapshot<Row>) throws -> (RoomChange<Row>, Result)
    ) async throws -> Result {
        try await change(roomID, rows: table, members: members, caller: caller, decide)
    }

    public func join(_ roomID: RoomID, account: AccountID) async throws -> JoinOutcome {
        try await join(roomID, account: account, role: "member")
    }

    public func leave(_ roomID: RoomID, account: AccountID) async throws {
        try await leave(roomID, account: account, by: nil)
    }

    public func list(limit: Int) async throws -> (rooms: [ListedRoom], total: Int) {
        try await list(limit: limit, offset: 0)
    }
}

/// An open room as a list shows it.
public struct ListedRoom: Sendable {
    public let room: Room
    public let joinedCount: Int
    /// The room's attributes as its plugin's `Attributes`, decoded once
    /// while the list is kept (read them with `attributes(as:)`).
    let attributesMemo: AttributesMemo?

    public init(room: Room, joinedCount: Int, attributes: AttributesMemo? = nil) {
        self.room = room
        self.joinedCount = joinedCount
        self.attributesMemo = attributes
    }
}

/// The accounts a route may reach: its tenant's, with sessions of its own
/// plugin (#28, item 1). New guests are made through `ClientCall`, which
/// counts them per client address.
public protocol PluginAccounts: Sendable {
    var pluginID: String { get }

    func account(_ accid: AccountID) async throws -> Account?

    /// The account a shipped app names by its accid instead of a session
    /// (`accidAsSid`), unless a tenant ban keeps it out: without a session to
    /// revoke, this is where the ban holds (#41: a tenant-banned account
    /// still booked lessons and read the teacher's password).
    func actingAs(_ accid: AccountID) async throws -> Account?

    /// The account behind a live session of this plugin; with
    /// `renewSeconds`, the session's expiry moves to now + that.
    func resolve(sid: String, renewSeconds: Int?) async throws -> (Account, expiresAt: Date)?

    /// The account behind a signed token of a live session of this plugin.
    func resolveSigned(token: String) async throws -> Account?

    /// A signed token for a new session (bound to an account by the caller).
    func signedSessionToken(ttlSeconds: Int) async throws -> (token: String, expiresAt: Date)

    /// A new session of this plugin; the token is shown once.
    func openSession(accid: AccountID, ttlSeconds: Int) async throws -> (sid: String, expiresAt: Date)

    /// A named account (false: the id is taken).
    func create(_ account: Account, passwordHash: String?) async throws -> Bool

    func accountWithPassword(_ accid: AccountID) async throws -> (Account, passwordHash: String?)?

    func delete(_ accid: AccountID) async throws

    /// Ends every session of the account now, and its IM access through the outbox.
    @discardableResult
    func revokeAccess(_ accid: AccountID) async throws -> Int
}

extension PluginAccounts {
    public func resolve(sid: String) async throws -> (Account, expiresAt: Date)? {
        try await resolve(sid: sid, renewSeconds: nil)
    }
}

/// Seals and opens secrets with the server's key.
public protocol PluginSecrets: Sendable {
    func seal(_ secret: String) async throws -> String
    /// nil when `sealed` was not sealed with this server's key.
    func open(_ sealed: String) async throws -> String?
}

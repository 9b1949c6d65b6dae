import Foundation
import HummingbirdBcrypt
import PostgresNIO
import RoomCore

/// The embedded IM provider, the default for every tenant: IM state lives in
/// PostgreSQL (`schema/im-local`), so the product runs with no vendor account.
/// Membership means a live connection that entered the chatroom.
public struct LocalIMProvider: ChatroomsInRoomDatabase {
    public let kind = "local"
    /// Its calls are statements under the request's deadline, or memory.
    public var callsAreBounded: Bool { true }
    public let tenantID: TenantID
    public let database: Database
    public let clock: any RoomClock
    public let limits: LocalIMLimits
    /// A connection not seen for this long no longer counts as present.
    public static let presenceWindow: TimeInterval = 90

    /// What goes with an account the retention purge removes: its IM
    /// account (token) and the notifications stored for it.
    public static let accountDependents = [
        AccountReference(table: "im_accounts", column: "accid"), AccountReference(table: "im_notifications", column: "to_accid"),
    ]
    /// Shared by every copy of this provider (one per tenant load).
    private let presenceCounts = PresenceCounts()

    public init(tenantID: TenantID, database: Database, clock: any RoomClock, limits: LocalIMLimits = .init()) {
        self.tenantID = tenantID
        self.database = database
        self.clock = clock
        self.limits = limits
    }

    /// Registers the account or, when it exists, issues a new token. Every
    /// token expires `limits.tokenTTLSeconds` after it was issued; issuing one
    /// lifts an earlier revocation (the app logged in again). A token we draw
    /// (16 random bytes) is stored as its SHA-256; one the client chose (the
    /// music-lesson app logs in with its password's MD5, which a dictionary
    /// guesses) as a salted bcrypt, so a database dump does not give it away.
    public func createAccount(_ account: IMAccount) async throws -> IMCredentials {
        let token = account.token ?? Secrets.randomToken(bytes: 16)
        let stored: String
        if account.token == nil {
            stored = Secrets.sha256Hex(token)
        } else if let known = account.tokenHash, known.hasPrefix("$2") {
            stored = known
        } else {
            stored = try await Self.slowHash(token, tenant: tenantID)
        }
        let now = clock.now()
        try await database.query("""
            INSERT INTO im_accounts (tenant_id, accid, name, avatar, token_hash, created_at, updated_at, token_expires_at)
            VALUES (\(tenantID), \(account.accid), \(account.name), \(account.avatar), \(stored), \(now), \(now), \(tokenExpiry(now)))
            ON CONFLICT (tenant_id, accid) DO UPDATE
            SET name = EXCLUDED.name, avatar = EXCLUDED.avatar, token_hash = EXCLUDED.token_hash, updated_at = EXCLUDED.updated_at,
                token_expires_at = EXCLUDED.token_expires_at, revoked_at = NULL
            """)
        return IMCredentials(accid: account.accid, token: token)
    }

    /// bcrypt at cost 10 (~60 ms of one core here), off the event loops.
    static func slowHash(_ token: String, tenant: TenantID) async throws -> String {
        try await SlowHash.run(tenant: tenant) { Bcrypt.hash(token, cost: 10) }
    }

    public func refreshToken(accid: AccountID) async throws -> IMCredentials {
        let token = Secrets.randomToken(bytes: 16)
        let now = clock.now()
        let rows = try await database.query("""
            UPDATE im_accounts SET token_hash = \(Secrets.sha256Hex(token)), updated_at = \(now), token_expires_at = \(tokenExpiry(now)), revoked_at = NULL
            WHERE tenant_id = \(tenantID) AND accid = \(accid) RETURNING accid
            """)
        for _ in rows { return IMCredentials(accid: accid, token: token) }
        throw IMError.rejected(operation: "refreshToken", code: 404, message: "no IM account \(accid)")
    }

    /// Ends the account's IM token and its connections, on every instance:
    /// the token's hash is wiped, the connection rows (and so presence) are
    /// deleted, and a NOTIFY tells each instance to close the sockets it holds
    /// for the account. An instance that missed the NOTIFY closes them at its
    /// next heartbeat, when it finds their rows gone. Idempotent.
    public func revokeTokens(accid: AccountID) async throws {
        try await database.query("""
            WITH revoked AS (
                UPDATE im_accounts SET token_hash = '', revoked_at = \(clock.now())
                WHERE tenant_id = \(tenantID) AND accid = \(accid) RETURNING accid
            ), dropped AS (
                DELETE FROM im_connections WHERE tenant_id = \(tenantID) AND accid = \(accid) RETURNING 1
            )
            SELECT pg_notify('roomkeeper_im', json_build_object('t', \(tenantID)::text, 'kick', \(accid)::text)::text),
                   (SELECT count(*) FROM revoked), (SELECT count(*) FROM dropped)
            """)
    }

    /// True when `token` is the account's current IM token, neither expired
    /// nor revoked (WebSocket login). Failures count against the account and
    /// `address` (`FailedLogins`); past their limit it throws the refusal
    /// without checking.
    public func verify(accid: AccountID, token: String, address: String) async throws -> Bool {
        try await FailedLogins(database: database, door: "im").attempt(tenantID, accid: accid, address: address, now: clock.now()) {
            let rows = try await database.query("""
                SELECT token_hash FROM im_accounts
                WHERE tenant_id = \(tenantID) AND accid = \(accid) AND token_hash <> ''
                  AND revoked_at IS NULL AND token_expires_at > \(clock.now())
                """)
            guard let stored = try rows.decode(String.self).first else { return false }
            if stored.hasPrefix("$2") { return try await SlowHash.run(tenant: tenantID) { Bcrypt.verify(token, hash: stored) } }
            return Secrets.sha256Hex(token) == stored
        }
    }

    private func tokenExpiry(_ now: Date) -> Date {
        now.addingTimeInterval(TimeInterval(limits.tokenTTLSeconds))
    }

    public func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String {
        let rows = try await database.query("""
            INSERT INTO im_chatrooms (tenant_id, chatroom_id, name, creator, created_at)
            VALUES (\(tenantID), coalesce(\(id), 'c' || nextval('im_chatroom_ids')), \(name), \(creator), \(clock.now()))
            ON CONFLICT DO NOTHING
            RETURNING chatroom_id
            """)
        for id in try rows.decode(String.self) { return id }
        if let id { throw IMError.rejected(operation: "createChatroom", code: 409, message: "chatroom \(id) exists") }
        throw IMError.unavailable(operation: "createChatroom", detail: "no id returned")
    }

    /// `createChatroom` as part of a room's create statement (#28, item 3).
    public func appendChatroomInsert(to sql: inout PostgresQuery.StringInterpolation, fromRooms rooms: String, now: Date) {
        // The text check reads literals one at a time: this statement binds
        // its tenant (the provider's) as the row's, and skips another's room.
        sql.appendLiteral("/* cross-tenant: no, the tenant of the provider is bound */ INSERT INTO im_chatrooms (tenant_id, chatroom_id, name, creator, created_at) SELECT ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(", im_chatroom_id, name, owner, ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" FROM \(rooms) WHERE im_chatroom_id IS NOT NULL AND tenant_id = ")
        sql.appendInterpolation(tenantID)
    }

    /// `closeChatroom` as part of a room's close statement (#28): the same
    /// three writes, as CTEs of that statement.
    public func appendChatroomClose(to sql: inout PostgresQuery.StringInterpolation, _ chatroom: String, operator op: AccountID, notifyExt: String?,
                                    now: Date, onlyIf gate: String) {
        sql.appendLiteral("im_closed AS (UPDATE im_chatrooms SET open = false, closed_at = ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" WHERE tenant_id = ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(" AND chatroom_id = ")
        sql.appendInterpolation(chatroom)
        sql.appendLiteral(" AND open AND EXISTS (SELECT 1 FROM \(gate)) RETURNING chatroom_id), ")
        sql.appendLiteral("im_closed_event AS (INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at) SELECT ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(", chatroom_id, 'closed', jsonb_build_object('operator', ")
        sql.appendInterpolation(op)
        sql.appendLiteral("::text, 'ext', ")
        sql.appendInterpolation(notifyExt)
        sql.appendLiteral("::text), ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" FROM im_closed), ")
        // Everyone is out of a closed chatroom.
        sql.appendLiteral("im_emptied AS (DELETE FROM im_presence WHERE tenant_id = ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(" AND chatroom_id IN (SELECT chatroom_id FROM im_closed))")
    }

    /// The chatroom messages, queue puts and notifications of a room's
    /// change as CTEs of its statement (#28): what `sendChatroomMessage`,
    /// `queuePut` and `sendNotification` write when the outbox delivers them,
    /// in the order given, only if the CTE `gate` returned a row (and, for
    /// the chatroom's own, while it is open).
    public func appendChatroomEffects(to sql: inout PostgresQuery.StringInterpolation, _ effects: [IMEffect], chatroom: String, now: Date,
                                      onlyIf gate: String) {
        var kinds: [String] = [], payloads: [String] = []
        var puts: [(key: String, value: String)] = []
        var notifications: (from: [String], to: [String], attach: [String], offline: [Bool]) = ([], [], [], [])
        for effect in effects {
            switch effect {
            case .chatroomMessage(_, let from, let type, let body, let persist):
                kinds.append("message")
                payloads.append(Self.messagePayload(from: from, type: type, body: body, persist: persist))
            case .queuePut(_, let key, let value, _):
                kinds.append("queue")
                payloads.append(#"{"action":"put","key":\#(JSONValue.literal(key)),"value":\#(JSONValue.literal(value))}"#)
                // One statement may not write a row twice: the last put of a key wins, as in order.
                puts.removeAll { $0.key == key }
                puts.append((key, value))
            case .notification(let from, let to, let attach, let storeOffline):
                notifications.from.append(from)
                notifications.to.append(to)
                notifications.attach.append(attach)
                notifications.offline.append(storeOffline)
            default:
                preconditionFailure("not an effect a statement applies: \(effect)")
            }
        }
        sql.appendLiteral("im_open AS (SELECT 1 FROM im_chatrooms WHERE tenant_id = ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(" AND chatroom_id = ")
        sql.appendInterpolation(chatroom)
        sql.appendLiteral(" AND open AND EXISTS (SELECT 1 FROM \(gate))), ")
        sql.appendLiteral("im_written AS (INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at) SELECT ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(", ")
        sql.appendInterpolation(chatroom)
        sql.appendLiteral(", e.kind, e.payload::jsonb, ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" FROM im_open, unnest(")
        sql.appendInterpolation(kinds)
        sql.appendLiteral("::text[], ")
        sql.appendInterpolation(payloads)
        sql.appendLiteral("::text[]) WITH ORDINALITY AS e(kind, payload, n) ORDER BY e.n), ")
        sql.appendLiteral("im_put AS (INSERT INTO im_queue (tenant_id, chatroom_id, key, value, updated_at) SELECT ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(", ")
        sql.appendInterpolation(chatroom)
        sql.appendLiteral(", q.key, q.value, ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" FROM im_open, unnest(")
        sql.appendInterpolation(puts.map(\.key))
        sql.appendLiteral("::text[], ")
        sql.appendInterpolation(puts.map(\.value))
        sql.appendLiteral("::text[]) AS q(key, value) ON CONFLICT (tenant_id, chatroom_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at), ")
        sql.appendLiteral("im_notified AS (INSERT INTO im_notifications (tenant_id, from_accid, to_accid, attach, store_offline, created_at) SELECT ")
        sql.appendInterpolation(tenantID)
        sql.appendLiteral(", x.from_accid, x.to_accid, x.attach, x.store_offline, ")
        sql.appendInterpolation(now)
        sql.appendLiteral(" FROM unnest(")
        sql.appendInterpolation(notifications.from)
        sql.appendLiteral("::text[], ")
        sql.appendInterpolation(notifications.to)
        sql.appendLiteral("::text[], ")
        sql.appendInterpolation(notifications.attach)
        sql.appendLiteral("::text[], ")
        sql.appendInterpolation(notifications.offline)
        sql.appendLiteral("::boolean[]) WITH ORDINALITY AS x(from_accid, to_accid, attach, store_offline, n) WHERE EXISTS (SELECT 1 FROM \(gate)) ORDER BY x.n)")
    }

    /// Idempotent: closing a closed chatroom succeeds and tells nobody again
    /// (the outbox delivers at least once).
    public func closeChatroom(_ chatroom: String, operator: AccountID, notifyExt: String?) async throws {
        let now = clock.now()
        let rows = try await database.query("""
            WITH target AS (
                SELECT open FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) FOR UPDATE
            ), closed AS (
                UPDATE im_chatrooms SET open = false, closed_at = \(now)
                WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open RETURNING chatroom_id
            ), event AS (
                INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at)
                SELECT \(tenantID), chatroom_id, 'closed', jsonb_build_object('operator', \(`operator`), 'ext', \(notifyExt)::text), \(now)
                FROM closed
            ), emptied AS (
                -- Everyone is out of a closed chatroom (in the same statement: one round trip).
                DELETE FROM im_presence WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom)
            )
            SELECT 1 FROM target
            """)
        try requireOne(rows, chatroom)
    }

    public func muteChatroom(_ chatroom: String, operator: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws {
        let now = clock.now()
        let rows = try await database.query("""
            WITH updated AS (
                UPDATE im_chatrooms SET muted = \(muted) WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open
                RETURNING chatroom_id
            ), event AS (
                INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at)
                SELECT \(tenantID), chatroom_id, 'muted', jsonb_build_object('muted', \(muted), 'ext', \(notifyExt)::text), \(now)
                FROM updated WHERE \(notify)
            )
            SELECT 1 FROM updated
            """)
        try requireOne(rows, chatroom)
    }

    /// Every connection of the account leaves the chatroom on every
    /// instance: its presence rows go, and a `kicked` event (naming it) tells
    /// the members; each hub takes the account's sockets out of the chatroom
    /// as it delivers that event. Keeping it out is the engine's ban rule,
    /// which the local IM's enter asks (`keepOut` needs nothing here).
    public func removeFromChatroom(_ chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?) async throws {
        try await database.query("""
            WITH gone AS (
                DELETE FROM im_presence WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND accid = \(accid)
            )
            INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at)
            SELECT \(tenantID), chatroom_id, 'kicked', jsonb_build_object('accid', \(accid)::text, 'operator', \(`operator`)::text), \(clock.now())
            FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open
            """)
    }

    /// Nothing to lift: the local IM holds no ban of its own.
    public func readmitToChatroom(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {}

    /// Nothing to hold either: a text asks the engine's mute rule
    /// (`roomkeeper_muted`) as it is written (`sendText`).
    public func muteMember(_ chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?) async throws {}
    public func unmuteMember(_ chatroom: String, accid: AccountID, operator: AccountID) async throws {}

    public func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool {
        let rows = try await database.query("""
            SELECT 1 FROM im_presence p
            JOIN im_connections c ON c.tenant_id = p.tenant_id AND c.connection_id = p.connection_id
            WHERE p.tenant_id = \(tenantID) AND p.chatroom_id = \(chatroom) AND p.accid = \(accid)
              AND c.seen_at > \(clock.now().addingTimeInterval(-Self.presenceWindow))
            LIMIT 1
            """)
        for _ in rows { return true }
        return false
    }

    public func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] {
        guard !chatrooms.isEmpty else { return [:] }
        return try await presenceCounts.counts(of: chatrooms) { [tenantID, database, clock] in
            let rows = try await database.query("""
                SELECT p.chatroom_id, count(DISTINCT p.accid)::int FROM im_presence p
                JOIN im_connections c ON c.tenant_id = p.tenant_id AND c.connection_id = p.connection_id
                WHERE p.tenant_id = \(tenantID) AND c.seen_at > \(clock.now().addingTimeInterval(-Self.presenceWindow))
                GROUP BY p.chatroom_id
                """)
            var counts: [String: Int] = [:]
            for (id, count) in try rows.decode((String, Int).self) { counts[id] = count }
            return counts
        }
    }

    public func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws {
        try await event(chatroom, kind: "message", payload: Self.messagePayload(from: from, type: type, body: body, persist: persist))
    }

    static func messagePayload(from: AccountID, type: String, body: String, persist: Bool) -> String {
        #"{"from":\#(JSONValue.literal(from)),"msgType":\#(JSONValue.literal(type)),"body":\#(JSONValue.literal(body)),"persisted":\#(persist)}"#
    }

    public func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws {
        let key = OutboxDelivery.idempotencyKey
        if try await applied(key, in: .notifications) { return }
        _ = try await onceByKey { try await database.query("""
            INSERT INTO im_notifications (tenant_id, from_accid, to_accid, attach, store_offline, created_at, idempotency_key)
            VALUES (\(tenantID), \(from), \(to), \(attach), \(storeOffline), \(clock.now()), \(key))
            """) }
    }

    public func queuePut(_ chatroom: String, key: String, value: String, operator: AccountID) async throws {
        let now = clock.now(), delivery = OutboxDelivery.idempotencyKey
        if try await applied(delivery, in: .events) { return }
        let rows = try await onceByKey { try await database.query("""
            WITH room AS (
                SELECT chatroom_id FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND open
            ), put AS (
                INSERT INTO im_queue (tenant_id, chatroom_id, key, value, updated_at)
                SELECT \(tenantID), chatroom_id, \(key), \(value), \(now) FROM room
                ON CONFLICT (tenant_id, chatroom_id, key) DO UPDATE SET value = EXCLUDED.value, updated_at = EXCLUDED.updated_at
            ), event AS (
                INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at, idempotency_key)
                SELECT \(tenantID), chatroom_id, 'queue', jsonb_build_object('action', 'put', 'key', \(key)::text, 'value', \(value)::text), \(now), \(delivery)
                FROM room
            )
            SELECT 1 FROM room
            """) }
        guard let rows else { return }
        try requireOne(rows, chatroom)
    }

    public func queuePoll(_ chatroom: String, key: String) async throws -> String? {
        let now = clock.now()
        let rows = try await database.query("""
            WITH polled AS (
                DELETE FROM im_queue WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) AND key = \(key)
                RETURNING chatroom_id, value
            ), event AS (
                INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at)
                SELECT \(tenantID), chatroom_id, 'queue', jsonb_build_object('action', 'poll', 'key', \(key)::text, 'value', value), \(now)
                FROM polled
            )
            SELECT value FROM polled
            """)
        for value in try rows.decode(String.self) { return value }
        return nil
    }

    public func queueList(_ chatroom: String) async throws -> [IMQueueEntry] {
        let rows = try await database.query("""
            SELECT key, value FROM im_queue WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom) ORDER BY key
            """)
        var entries: [IMQueueEntry] = []
        for (key, value) in try rows.decode((String, String).self) { entries.append(IMQueueEntry(key: key, value: value)) }
        return entries
    }

    public func queueDrop(_ chatroom: String) async throws {
        try await database.query("DELETE FROM im_queue WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom)")
        try await event(chatroom, kind: "queue", payload: #"{"action":"drop"}"#, requireOpen: false)
    }

    /// Records an event clients of the chatroom see; the trigger notifies every instance.
    func event(_ chatroom: String, kind: String, payload: String, requireOpen: Bool = true) async throws {
        let key = OutboxDelivery.idempotencyKey
        if try await applied(key, in: .events) { return }
        let rows = try await onceByKey { try await database.query("""
            INSERT INTO im_events (tenant_id, chatroom_id, kind, payload, at, idempotency_key)
            SELECT \(tenantID), \(chatroom), \(kind), \(payload)::jsonb, \(clock.now()), \(key)
            WHERE EXISTS (SELECT 1 FROM im_chatrooms WHERE tenant_id = \(tenantID) AND chatroom_id = \(chatroom)
                          AND (open OR NOT \(requireOpen)))
            RETURNING 1
            """) }
        guard let rows else { return }
        try requireOne(rows, chatroom)
    }

    /// Where an outbox entry's key is stored with what it wrote.
    private enum KeyedRows { case events, notifications }

    /// Whether the outbox entry being delivered (`key`) was applied already.
    private func applied(_ key: String?, in rows: KeyedRows) async throws -> Bool {
        guard let key else { return false }
        let found = switch rows {
        case .events: try await database.query("SELECT 1 FROM im_events WHERE tenant_id = \(tenantID) AND idempotency_key = \(key)")
        case .notifications: try await database.query("SELECT 1 FROM im_notifications WHERE tenant_id = \(tenantID) AND idempotency_key = \(key)")
        }
        return !found.isEmpty
    }

    /// Runs a write that stores the entry's key; nil when another delivery
    /// of the same entry wrote it first (the unique index decided).
    private func onceByKey(_ write: () async throws -> [PostgresRow]) async throws -> [PostgresRow]? {
        do {
            return try await write()
        } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" && OutboxDelivery.idempotencyKey != nil {
            return nil
        }
    }

    private func requireOne(_ rows: [PostgresRow], _ chatroom: String) throws {
        guard !rows.isEmpty else { throw IMError.chatroomNotFound(chatroom) }
    }
}

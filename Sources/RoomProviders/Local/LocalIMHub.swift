import Foundation
import Metrics
import Logging
import PostgresNIO
import RoomCore
import ServiceLifecycle
import Synchronization

/// Fans local-IM events out to this instance's connections. Every instance
/// follows `roomkeeper_im` on its LISTEN connection (`follower`); an event written through any instance reaches
/// every connection entered in its chatroom, wherever it is connected.
/// Notifications are claimed in PostgreSQL (`delivered_at IS NULL`), so each
/// is delivered once.
public final class LocalIMHub: Service, Sendable {
    public let instanceID: String
    let database: Database
    let clock: any RoomClock
    let logger: Logger
    let heartbeatInterval: Duration
    /// Sockets this instance holds at most; a login beyond is refused.
    public let maxConnections: Int
    /// Frames waiting for one socket at most: a client that reads slower
    /// than its chatrooms talk is disconnected rather than buffered for.
    public let queueLimit: Int

    struct Session {
        let tenantID: TenantID
        let accid: AccountID
        var chatrooms: Set<String>
        let frames: AsyncStream<String>.Continuation
        var ending: SocketEnding?
        /// When the socket logged in: a notification sent unstored before
        /// then was not for it, whatever a replay finds undelivered.
        let registeredAt: Date
    }

    private let sessions = Mutex<[UUID: Session]>([:])
    private let work: AsyncStream<Notice>.Continuation
    private let workStream: AsyncStream<Notice>
    /// Event ids delivered lately, so a replay after a LISTEN gap sends none twice.
    private let recent = Mutex(RecentEvents())
    /// When the LISTEN was last lost (or the hub started), until it is back.
    private let listenLostAt: Mutex<Date?>

    public init(database: Database, clock: any RoomClock, logger: Logger, heartbeatInterval: Duration = .seconds(30),
                maxConnections: Int = 10_000, queueLimit: Int = 512) {
        self.instanceID = UUID().uuidString
        self.database = database
        self.clock = clock
        self.logger = logger
        self.heartbeatInterval = heartbeatInterval
        self.maxConnections = maxConnections
        self.queueLimit = queueLimit
        (workStream, work) = AsyncStream.makeStream(of: Notice.self)
        listenLostAt = Mutex(clock.now())
    }

    // MARK: sessions

    /// Registers a connection; its frames (JSON text) arrive on the returned
    /// stream, in order. nil when this instance holds `maxConnections` already.
    public func register(_ connection: UUID, tenantID: TenantID, accid: AccountID) -> AsyncStream<String>? {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(queueLimit))
        let (admitted, count) = sessions.withLock { sessions -> (Bool, Int) in
            guard sessions.count < maxConnections else { return (false, sessions.count) }
            sessions[connection] = Session(tenantID: tenantID, accid: accid, chatrooms: [], frames: continuation, registeredAt: clock.now())
            return (true, sessions.count)
        }
        Self.connections.record(count)
        return admitted ? stream : nil
    }

    public func unregister(_ connection: UUID) {
        let (session, count) = sessions.withLock { ($0.removeValue(forKey: connection), $0.count) }
        Self.connections.record(count)
        session?.frames.finish()
    }

    /// This instance's local IM sockets (#30's dashboard).
    static let connections = Gauge(label: "roomkeeper_im_connections")

    /// Why the server is ending this connection, once it is: its writer stops
    /// sending and closes the socket with this code.
    public func ending(of connection: UUID) -> SocketEnding? {
        sessions.withLock { $0[connection]?.ending }
    }

    /// Ends the connections that match, whichever of their frames are still queued.
    func end(_ ending: SocketEnding, where matches: (UUID, Session) -> Bool) {
        sessions.withLock { sessions in
            for (id, session) in sessions where session.ending == nil && matches(id, session) {
                sessions[id]?.ending = ending
                session.frames.finish()
            }
        }
    }

    /// Queues a frame, or ends a connection whose queue is full.
    private static func push(_ frame: String, to id: UUID, in sessions: inout [UUID: Session]) {
        guard let session = sessions[id], session.ending == nil else { return }
        if case .dropped = session.frames.yield(frame) {
            sessions[id]?.ending = .slowConsumer
            session.frames.finish()
        }
    }

    public func entered(_ connection: UUID, chatroom: String) {
        sessions.withLock { _ = $0[connection]?.chatrooms.insert(chatroom) }
    }

    public func left(_ connection: UUID, chatroom: String) {
        sessions.withLock { _ = $0[connection]?.chatrooms.remove(chatroom) }
    }

    public func isEntered(_ connection: UUID, chatroom: String) -> Bool {
        sessions.withLock { $0[connection]?.chatrooms.contains(chatroom) ?? false }
    }

    /// Sends a frame to one connection, after what is already queued for it.
    public func send(_ frame: String, to connection: UUID) {
        sessions.withLock { Self.push(frame, to: connection, in: &$0) }
    }

    public var connectionCount: Int { sessions.withLock { $0.count } }

    // MARK: service

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.processWork() }
            group.addTask { await self.heartbeat() }
            try? await gracefulShutdown()
            group.cancelAll()
            work.finish()
        }
    }

    /// What the instance's LISTEN connection (`NotificationService`) hands
    /// the hub: NOTIFYs on `roomkeeper_im` in order, and, once listening
    /// again after a gap, a replay from PostgreSQL of what it may have missed.
    public var follower: any NotificationFollower { IMFollower(hub: self) }

    struct IMFollower: NotificationFollower {
        let hub: LocalIMHub
        var channel: String { "roomkeeper_im" }

        func listening() {
            // The first LISTEN follows a gap too: a socket may enter a
            // chatroom before it is in place.
            let since = hub.listenLostAt.withLock { lost in
                defer { lost = nil }
                return lost
            }
            if let since { hub.work.yield(.replay(since: since)) }
        }

        func notified(_ payload: String) {
            if let notice = Notice(payload) { hub.work.yield(notice) }
        }

        func lost() {
            let now = hub.clock.now()
            hub.listenLostAt.withLock { lost in if lost == nil { lost = now } }
        }
    }

    /// One worker, so frames keep the order PostgreSQL notified them in.
    private func processWork() async {
        for await notice in workStream {
            do {
                // The notice's tenant decides the cell its reads go to (#43).
                switch notice {
                case .event(let event): try await LeaseOwner.$tenant.withValue(event.tenantID) { try await deliver(event) }
                case .notification(let tenantID, let id, let to):
                    try await LeaseOwner.$tenant.withValue(tenantID) { try await deliverNotification(tenantID, id: id, to: to) }
                case .kick(let tenantID, let accid): end(.revoked) { $1.tenantID == tenantID && $1.accid == accid }
                case .replay(let since): try await replay(since: since)
                }
            } catch {
                logger.error("local IM delivery failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Keeps this instance's connections counted as present, and drops what
    /// retention no longer keeps (old events, delivered notifications,
    /// connections of instances that died).
    private func heartbeat() async {
        while !Task.isCancelled {
            do { try await Task.sleep(for: heartbeatInterval) } catch { return }
            do {
                try await beat()
                let database = database, now = clock.now()
                _ = try await database.inEachCell { try await LocalIMProvider.purge(database, now: now) }
            } catch {
                logger.warning("local IM heartbeat failed", metadata: ["error": "\(error)"])
            }
        }
    }

    /// Refreshes only the connections this instance really holds. Its rows
    /// for sockets it no longer has (a disconnect that failed while the
    /// database was away) are removed, so they stop counting as present and
    /// cannot satisfy join-IM-first. A row younger than 10 s is left alone:
    /// a socket's row is written just before the hub registers it.
    /// A socket whose row is gone (its account's IM access was revoked,
    /// perhaps while this instance missed the NOTIFY) is ended; only sockets
    /// registered before the refresh read them count, since each one's row
    /// was committed before it registered.
    public func beat() async throws {
        let live = sessions.withLock { Array($0.keys) }
        let now = clock.now()
        let database = database, instanceID = instanceID
        // Each cell holds the rows of its tenants' sockets (#43).
        let kept = Set(try await database.inEachCell {
            let refreshed = try await database.query("""
                -- cross-tenant: an instance's heartbeat covers its own sockets, of every tenant
                UPDATE im_connections SET seen_at = \(now) WHERE instance_id = \(instanceID) AND connection_id = ANY(\(live))
                RETURNING connection_id
                """)
            try await database.query("""
                -- cross-tenant: an instance forgets its own dead sockets, of every tenant
                DELETE FROM im_connections
                WHERE instance_id = \(instanceID) AND NOT (connection_id = ANY(\(live))) AND connected_at < \(now.addingTimeInterval(-10))
                """)
            return try refreshed.decode(UUID.self)
        }.joined())
        let checked = Set(live)
        end(.revoked) { id, _ in checked.contains(id) && !kept.contains(id) }
    }

    // MARK: delivery

    private func deliver(_ event: ChatroomEvent) async throws {
        // Nobody here is in the chatroom: nothing to read or write a frame
        // for (a hot room's joins notify one event each, #41; the frames of
        // seat moves nobody here listened to were 2.1 % of the server's
        // samples in ops/bench figure 5's profile).
        let listened = sessions.withLock { sessions in
            sessions.values.contains { $0.tenantID == event.tenantID && $0.chatrooms.contains(event.chatroom) }
        }
        guard listened else {
            _ = recent.withLock { $0.insert(event.id) }
            return
        }
        var event = event
        if event.payload == nil { event = try await fetch(event) ?? event }
        guard event.payload != nil else { return }
        guard recent.withLock({ $0.insert(event.id) }) else { return }
        let frame = event.frame
        // A kick names the account whose sockets leave (#29); they get the frame too.
        let kicked = event.kind == "kicked" ? event.payload?["accid"]?.string : nil
        sessions.withLock { sessions in
            for (id, session) in sessions where session.tenantID == event.tenantID && session.chatrooms.contains(event.chatroom) {
                Self.push(frame, to: id, in: &sessions)
                if event.kind == "closed" || session.accid == kicked { sessions[id]?.chatrooms.remove(event.chatroom) }
            }
        }
    }

    /// After a LISTEN gap: the events of the chatrooms this instance's
    /// sockets are in, written since a little before the gap began (commit
    /// order is not id order), and the notifications still undelivered to
    /// its accounts. What was delivered already is skipped.
    private func replay(since: Date) async throws {
        let held = sessions.withLock { sessions in
            sessions.values.map { (tenant: $0.tenantID, accid: $0.accid, chatrooms: $0.chatrooms, registeredAt: $0.registeredAt) }
        }
        guard !held.isEmpty else { return }
        // A revocation's kick sent during the gap reached nobody here: its
        // sockets' rows are gone, which the heartbeat's check sees now.
        try await beat()
        var tenants: [String] = [], chatrooms: [String] = []
        for session in held {
            for chatroom in session.chatrooms {
                tenants.append(session.tenant)
                chatrooms.append(chatroom)
            }
        }
        let database = database
        let rows = Array(try await database.inEachCell { try await database.query("""
            -- cross-tenant: one hub replays the events of every tenant it serves after a LISTEN gap
            SELECT e.tenant_id, e.chatroom_id, e.event_id, e.kind, e.payload::text, (extract(epoch FROM e.at) * 1000)::bigint
            FROM (SELECT DISTINCT * FROM unnest(\(tenants)::text[], \(chatrooms)::text[]) AS r(tenant_id, chatroom_id)) r
            JOIN im_events e ON e.tenant_id = r.tenant_id AND e.chatroom_id = r.chatroom_id
            WHERE e.at >= \(since.addingTimeInterval(-5))
            ORDER BY e.event_id LIMIT 10000
            """) }.joined())
        var replayed = 0
        for (tenant, chatroom, id, kind, payload, at) in try rows.decode((String, String, Int64, String, String, Int64).self) {
            let event = ChatroomEvent(tenantID: tenant, chatroom: chatroom, id: id, kind: kind, payload: JSONValue.parse(payload), at: at)
            try await LeaseOwner.$tenant.withValue(tenant) { try await deliver(event) }
            replayed += 1
        }
        // Unstored notifications whose NOTIFY the gap lost: those sent since
        // the gap began (less 5 s, as for events) and since the account's
        // first socket here logged in. One sent unstored before that was for
        // nobody, and stays undelivered (a replay once sent it to a socket
        // that connected later).
        var firstLogin: [[String]: Date] = [:]
        for session in held {
            firstLogin[[session.tenant, session.accid]] = min(firstLogin[[session.tenant, session.accid]] ?? session.registeredAt, session.registeredAt)
        }
        for (account, registeredAt) in firstLogin {
            try await LeaseOwner.$tenant.withValue(account[0]) {
                try await deliverStored(tenantID: account[0], to: account[1], unstoredSince: max(registeredAt, since.addingTimeInterval(-5)))
            }
        }
        logger.info("local IM replayed events after a LISTEN gap", metadata: ["events": "\(replayed)"])
    }

    private func fetch(_ event: ChatroomEvent) async throws -> ChatroomEvent? {
        let rows = try await database.query("""
            SELECT kind, payload::text, (extract(epoch FROM at) * 1000)::bigint FROM im_events
            WHERE tenant_id = \(event.tenantID) AND event_id = \(event.id)
            """)
        for (kind, payload, at) in try rows.decode((String, String, Int64).self) {
            return ChatroomEvent(tenantID: event.tenantID, chatroom: event.chatroom, id: event.id, kind: kind, payload: JSONValue.parse(payload), at: at)
        }
        return nil
    }

    private func deliverNotification(_ tenantID: TenantID, id: Int64, to accid: AccountID) async throws {
        let local = sessions.withLock { $0.contains { $0.value.tenantID == tenantID && $0.value.accid == accid } }
        guard local else { return }
        let rows = try await database.query("""
            UPDATE im_notifications SET delivered_at = \(clock.now())
            WHERE tenant_id = \(tenantID) AND notification_id = \(id) AND delivered_at IS NULL
            RETURNING notification_id, from_accid, attach, (extract(epoch FROM created_at) * 1000)::bigint
            """)
        try await sendClaimed(rows, tenantID: tenantID, to: accid)
    }

    /// Delivers what was stored for `accid` while it was offline, once.
    /// `unstoredSince`: after a LISTEN gap, also what was sent unstored
    /// since then for an online account whose NOTIFY was lost.
    public func deliverStored(tenantID: TenantID, to accid: AccountID, unstoredSince: Date? = nil) async throws {
        let rows = try await database.query("""
            UPDATE im_notifications SET delivered_at = \(clock.now())
            WHERE tenant_id = \(tenantID) AND to_accid = \(accid) AND delivered_at IS NULL
              AND (store_offline OR created_at >= \(unstoredSince))
            RETURNING notification_id, from_accid, attach, (extract(epoch FROM created_at) * 1000)::bigint
            """)
        try await sendClaimed(rows, tenantID: tenantID, to: accid)
    }

    private func sendClaimed(_ rows: [PostgresRow], tenantID: TenantID, to accid: AccountID) async throws {
        var claimed: [(Int64, String, String, Int64)] = []
        for row in try rows.decode((Int64, String, String, Int64).self) { claimed.append(row) }
        for (id, from, attach, at) in claimed.sorted(by: { $0.0 < $1.0 }) {
            let frame = Frames.encode(.object([
                "type": .string("notification"), "id": .number(Double(id)), "from": .string(from),
                "attach": .string(attach), "at": .number(Double(at)),
            ]))
            sessions.withLock { sessions in
                for (id, session) in sessions where session.tenantID == tenantID && session.accid == accid {
                    Self.push(frame, to: id, in: &sessions)
                }
            }
        }
    }
}

/// What a NOTIFY on `roomkeeper_im` says.
enum Notice: Sendable {
    case event(ChatroomEvent)
    case notification(TenantID, id: Int64, to: AccountID)
    /// The account's IM access was revoked: close its sockets.
    case kick(TenantID, AccountID)
    /// Not a NOTIFY: the listener is back after a gap that began then.
    case replay(since: Date)

    init?(_ payload: String) {
        guard case .object(let object)? = JSONValue.parse(payload), let tenant = object["t"]?.string else { return nil }
        if let accid = object["kick"]?.string {
            self = .kick(tenant, accid)
        } else if let id = object["n"]?.int64, let to = object["to"]?.string {
            self = .notification(tenant, id: id, to: to)
        } else if let chatroom = object["c"]?.string, let id = object["e"]?.int64 {
            self = .event(ChatroomEvent(tenantID: tenant, chatroom: chatroom, id: id, kind: object["k"]?.string ?? "",
                                        payload: object["p"], at: object["at"]?.int64 ?? 0))
        } else {
            return nil
        }
    }
}

struct ChatroomEvent: Sendable {
    let tenantID: TenantID
    let chatroom: String
    let id: Int64
    let kind: String
    /// nil when the NOTIFY was too small to carry it.
    let payload: JSONValue?
    let at: Int64

    /// `{"type":kind,"chatroom","id","at", …payload}`.
    var frame: String {
        var object: [String: JSONValue] = [:]
        if case .object(let fields)? = payload { object = fields }
        object["type"] = .string(kind)
        object["chatroom"] = .string(chatroom)
        object["id"] = .number(Double(id))
        object["at"] = .number(Double(at))
        return Frames.encode(.object(object))
    }
}

public enum Frames {
    /// Compact, keys sorted, `/` not escaped (`JSONValue.jsonText`): what
    /// `JSONEncoder` wrote here, without its cost.
    public static func encode(_ value: JSONValue) -> String {
        value.jsonText
    }

    public static func error(_ code: String, _ message: String) -> String {
        encode(.object(["type": .string("error"), "code": .string(code), "message": .string(message)]))
    }
}

/// How the server ends a local-IM socket: a close code (4000-4999 are the
/// application's) and its reason.
public struct SocketEnding: Sendable, Equatable {
    public let code: UInt16
    public let reason: String

    public static let revoked = SocketEnding(code: 4003, reason: "the account's IM access was revoked or has expired; log in again")
    public static let slowConsumer = SocketEnding(code: 4008, reason: "too many frames waiting for this connection; reconnect")
}

/// The ids of the last few thousand events delivered, oldest first out.
struct RecentEvents {
    private var ids: Set<Int64> = []
    private var order: [Int64] = []
    private var head = 0
    static let capacity = 8_192

    /// False when `id` was delivered already.
    mutating func insert(_ id: Int64) -> Bool {
        guard ids.insert(id).inserted else { return false }
        if order.count < Self.capacity {
            order.append(id)
        } else {
            ids.remove(order[head])
            order[head] = id
            head = (head + 1) % Self.capacity
        }
        return true
    }
}

import Foundation
import Logging
import PostgresNIO
import RoomCore
import ServiceLifecycle
import Synchronization

/// Fans local-IM events out to this instance's connections. Every instance
/// LISTENs on `roomkeeper_im`; an event written through any instance reaches
/// every connection entered in its chatroom, wherever it is connected.
/// Notifications are claimed in PostgreSQL (`delivered_at IS NULL`), so each
/// is delivered once.
public final class LocalIMHub: Service, Sendable {
    public let instanceID: String
    let database: Database
    let clock: any RoomClock
    let logger: Logger
    let heartbeatInterval: Duration

    struct Session {
        let tenantID: TenantID
        let accid: AccountID
        var chatrooms: Set<String>
        let frames: AsyncStream<String>.Continuation
    }

    private let sessions = Mutex<[UUID: Session]>([:])
    private let work: AsyncStream<Notice>.Continuation
    private let workStream: AsyncStream<Notice>

    public init(database: Database, clock: any RoomClock, logger: Logger, heartbeatInterval: Duration = .seconds(30)) {
        self.instanceID = UUID().uuidString
        self.database = database
        self.clock = clock
        self.logger = logger
        self.heartbeatInterval = heartbeatInterval
        (workStream, work) = AsyncStream.makeStream(of: Notice.self)
    }

    // MARK: sessions

    /// Registers a connection; its frames (JSON text) arrive on the returned stream, in order.
    public func register(_ connection: UUID, tenantID: TenantID, accid: AccountID) -> AsyncStream<String> {
        let (stream, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(10_000))
        sessions.withLock { $0[connection] = Session(tenantID: tenantID, accid: accid, chatrooms: [], frames: continuation) }
        return stream
    }

    public func unregister(_ connection: UUID) {
        let session = sessions.withLock { $0.removeValue(forKey: connection) }
        session?.frames.finish()
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
        _ = sessions.withLock { $0[connection]?.frames.yield(frame) }
    }

    public var connectionCount: Int { sessions.withLock { $0.count } }

    // MARK: service

    public func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.processWork() }
            group.addTask { await self.heartbeat() }
            group.addTask { await self.listen() }
            try? await gracefulShutdown()
            group.cancelAll()
            work.finish()
        }
    }

    /// Holds one connection of its own in LISTEN; reconnects after a failure.
    private func listen() async {
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await database.withDedicatedConnection { connection in
                    try await connection.listen(on: "roomkeeper_im") { notifications in
                        for try await notification in notifications {
                            if let notice = Notice(notification.payload) { work.yield(notice) }
                        }
                    }
                }
            } catch {
                if Task.isCancelled { return }
                logger.warning("local IM listener lost its connection; reconnecting", metadata: ["error": "\(error)"])
                try? await Task.sleep(for: .seconds(1))
            }
        }
    }

    /// One worker, so frames keep the order PostgreSQL notified them in.
    private func processWork() async {
        for await notice in workStream {
            do {
                switch notice {
                case .event(let event): try await deliver(event)
                case .notification(let tenantID, let id, let to): try await deliverNotification(tenantID, id: id, to: to)
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
                try await LocalIMProvider.purge(database, now: clock.now())
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
    public func beat() async throws {
        let live = sessions.withLock { Array($0.keys) }
        let now = clock.now()
        try await database.query("""
            UPDATE im_connections SET seen_at = \(now) WHERE instance_id = \(instanceID) AND connection_id = ANY(\(live))
            """)
        try await database.query("""
            DELETE FROM im_connections
            WHERE instance_id = \(instanceID) AND NOT (connection_id = ANY(\(live))) AND connected_at < \(now.addingTimeInterval(-10))
            """)
    }

    // MARK: delivery

    private func deliver(_ event: ChatroomEvent) async throws {
        var event = event
        if event.payload == nil { event = try await fetch(event) ?? event }
        guard event.payload != nil else { return }
        let frame = event.frame
        sessions.withLock { sessions in
            for (id, session) in sessions where session.tenantID == event.tenantID && session.chatrooms.contains(event.chatroom) {
                session.frames.yield(frame)
                if event.kind == "closed" { sessions[id]?.chatrooms.remove(event.chatroom) }
            }
        }
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
    public func deliverStored(tenantID: TenantID, to accid: AccountID) async throws {
        let rows = try await database.query("""
            UPDATE im_notifications SET delivered_at = \(clock.now())
            WHERE tenant_id = \(tenantID) AND to_accid = \(accid) AND delivered_at IS NULL AND store_offline
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
                for session in sessions.values where session.tenantID == tenantID && session.accid == accid {
                    session.frames.yield(frame)
                }
            }
        }
    }
}

/// What a NOTIFY on `roomkeeper_im` says.
enum Notice: Sendable {
    case event(ChatroomEvent)
    case notification(TenantID, id: Int64, to: AccountID)

    init?(_ payload: String) {
        guard case .object(let object)? = JSONValue.parse(payload), let tenant = object["t"]?.string else { return nil }
        if let id = object["n"]?.int64, let to = object["to"]?.string {
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
    public static func encode(_ value: JSONValue) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(value)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public static func error(_ code: String, _ message: String) -> String {
        encode(.object(["type": .string("error"), "code": .string(code), "message": .string(message)]))
    }
}

import Foundation
import Synchronization

/// A plugin's open rooms, newest first, served from memory (#19): the lobby
/// polls `/room/list` far more often than rooms change, so each instance
/// keeps the head of each (tenant, plugin) list and forgets it when a commit
/// changes that list.
///
/// What a reader may see: on the instance that made a change, the change at
/// once (the engine forgets the list after its commit and before it
/// answers, so a creator always finds their new room there); on every other
/// instance, the change once PostgreSQL's notification of the commit
/// reaches it (the `rooms` triggers notify `roomkeeper_rooms`). While an
/// instance is not listening (starting, or its LISTEN connection lost), it
/// reads every list from PostgreSQL, and it starts again from an empty cache.
///
/// Memory is bounded by lists, not rooms: at most `maxHead` rooms a list.
public final class RoomListCache: Sendable {
    public typealias Listed = ListedRoom

    /// The first rooms of one list and how many rooms the list has in all.
    public struct Head: Sendable {
        public let rooms: [Listed]
        public let total: Int

        public init(rooms: [Listed], total: Int) {
            self.rooms = rooms
            self.total = total
        }

        /// The head holds every room of the list.
        var isComplete: Bool { rooms.count >= total }
    }

    struct Key: Hashable, Sendable {
        let tenantID: TenantID
        let pluginID: String
    }

    private struct Entry {
        let head: Head
        let size: Int
    }

    private struct Load {
        let stamp: UInt64
        let size: Int
        let task: Task<Head, any Error>
    }

    private struct State {
        var listening = false
        /// The stamp when listening last started or stopped.
        var listeningSince: UInt64 = 0
        /// Bumped by every change; a load that began before the last change
        /// of its list is answered but not kept.
        var stamp: UInt64 = 0
        var changedAt: [Key: UInt64] = [:]
        var entries: [Key: Entry] = [:]
        var loads: [Key: Load] = [:]
    }

    /// The most rooms kept for one list; deeper pages are read from PostgreSQL.
    public let maxHead: Int
    private let state = Mutex(State())

    public init(maxHead: Int = 1_000) {
        self.maxHead = maxHead
    }

    /// Whether lists are served from memory (only while notifications arrive).
    public var isListening: Bool { state.withLock { $0.listening } }

    /// The LISTEN is in place: start from nothing, as changes made before it
    /// reached nobody here.
    public func startListening() {
        state.withLock { state in
            state.stamp += 1
            state.entries.removeAll()
            state.loads.removeAll()
            state.changedAt.removeAll()
            state.listeningSince = state.stamp
            state.listening = true
        }
    }

    /// The LISTEN is gone: nothing here can be trusted any more.
    public func stopListening() {
        state.withLock { state in
            state.stamp += 1
            state.entries.removeAll()
            state.loads.removeAll()
            state.changedAt.removeAll()
            state.listeningSince = state.stamp
            state.listening = false
        }
    }

    /// A commit changed this list (a notification, or this instance's own commit).
    public func forget(_ tenantID: TenantID, _ pluginID: String) {
        let key = Key(tenantID: tenantID, pluginID: pluginID)
        state.withLock { state in
            state.stamp += 1
            state.changedAt[key] = state.stamp
            state.entries[key] = nil
            state.loads[key] = nil
        }
    }

    /// A notification's payload, `tenant/plugin`.
    public func forget(payload: String) {
        guard let slash = payload.firstIndex(of: "/") else { return }
        forget(String(payload[..<slash]), String(payload[payload.index(after: slash)...]))
    }

    /// `limit` rooms from `offset` of the list, and the list's total, from
    /// memory when it holds them; `load(limit, offset)` reads that part of
    /// the list (and its total) from PostgreSQL. Concurrent readers of a list
    /// share one load.
    public func page(
        _ tenantID: TenantID, _ pluginID: String, limit: Int, offset: Int, now: Date,
        load: @escaping @Sendable (_ limit: Int, _ offset: Int) async throws -> Head
    ) async throws -> (rooms: [Listed], total: Int) {
        let wanted = offset + limit
        let size = min(maxHead, max(100, (wanted + 99) / 100 * 100))
        guard wanted <= maxHead else { return Self.slice(try await load(limit, offset), offset: 0, limit: limit, now: now) }
        let key = Key(tenantID: tenantID, pluginID: pluginID)
        enum Next { case serve(Head), await(Task<Head, any Error>), direct }
        let next: Next = state.withLock { state in
            guard state.listening else { return .direct }
            if let entry = state.entries[key], entry.size >= size || entry.head.isComplete { return .serve(entry.head) }
            if let running = state.loads[key], running.size >= size { return .await(running.task) }
            let stamp = state.stamp
            let task = Task<Head, any Error> {
                let head = try await load(size, 0)
                self.keep(head, size: size, for: key, loadedSince: stamp)
                return head
            }
            state.loads[key] = Load(stamp: stamp, size: size, task: task)
            return .await(task)
        }
        switch next {
        case .serve(let head): return Self.slice(head, offset: offset, limit: limit, now: now)
        case .await(let task): return Self.slice(try await task.value, offset: offset, limit: limit, now: now)
        case .direct: return Self.slice(try await load(limit, offset), offset: 0, limit: limit, now: now)
        }
    }

    private func keep(_ head: Head, size: Int, for key: Key, loadedSince stamp: UInt64) {
        state.withLock { state in
            if state.loads[key]?.stamp == stamp { state.loads[key] = nil }
            // Changed (or listening restarted) since the load began: too old to keep.
            guard state.listening, (state.changedAt[key] ?? 0) <= stamp, stamp >= state.listeningSince else { return }
            state.entries[key] = Entry(head: head, size: size)
        }
    }

    /// Rooms past their TTL are left out as soon as they are due, before the
    /// sweeper closes them (whose commit then forgets the list).
    static func slice(_ head: Head, offset: Int, limit: Int, now: Date) -> (rooms: [Listed], total: Int) {
        let live = head.rooms.filter { $0.room.expiresAt > now }
        let total = max(0, head.total - (head.rooms.count - live.count))
        guard offset < live.count else { return ([], total) }
        return (Array(live[offset..<min(live.count, offset + limit)]), total)
    }
}

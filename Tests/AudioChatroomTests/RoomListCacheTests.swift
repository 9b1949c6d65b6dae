import Foundation
import Hummingbird
import HummingbirdTesting
import RoomCore
import RoomServer
import RoomTestSupport
import Testing

/// #19, item 2: `/room/list` is served from each instance's memory, kept
/// current by the commits that change it. Two live instances on one database.
@Suite struct RoomListCacheTests {
    /// Polls `body` until it is true or `seconds` pass.
    static func eventually(_ seconds: Double = 5, _ body: () async throws -> Bool) async throws -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try await body() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return try await body()
    }

    /// A room row written with the `rooms` triggers off: no instance hears of
    /// it, so a list that shows it was read from PostgreSQL, not memory.
    static func unannouncedRoom(_ fixture: AudioChatroomFixture) async throws -> RoomID {
        let id = RoomID(2_000_000_000) + RoomID.random(in: 0..<100_000_000)
        try await fixture.server.database.transaction { connection in
            try await connection.run("SET LOCAL session_replication_role = replica", logger: fixture.server.database.logger)
            try await connection.run("""
                INSERT INTO rooms (tenant_id, room_id, plugin_id, name, owner, state, capacity, created_at, expires_at)
                VALUES (\(fixture.server.id(0)), \(id), 'audio-chatroom', 'unannounced', 'nobody', 'open', 10, now(), now() + interval '1 hour')
                """, logger: fixture.server.database.logger)
        }
        return id
    }

    static func listed(_ http: HTTP, _ fixture: AudioChatroomFixture) async throws -> Set<Int64> {
        guard case .array(let list)? = data(try await http.form("\(fixture.base())/room/list", "limit=100"))?["list"] else { return [] }
        return Set(list.compactMap { $0["roomId"]?.int64 })
    }

    static func live<T: Sendable>(_ instance: Roomkeeper, _ body: @escaping @Sendable (HTTP) async throws -> T) async throws -> T {
        try await withDeadline(60, { "a live instance" }) {
            try await instance.buildApplication().test(.live) { client in try await body(HTTP(client: client)) }
        }
    }

    @Test func listsComeFromMemoryAndEveryInstanceForgetsThemOnEachCommit() async throws {
        let fixture = try await AudioChatroomFixture(clock: SystemClock())
        let (first, second) = (try fixture.server.server(), try fixture.server.server())
        try await Self.live(first) { here in
            try await Self.live(second) { there in
                #expect(try await Self.eventually { first.services.engine.listCache.isListening && second.services.engine.listCache.isListening })
                let sid = try #require(data(try await here.form("\(fixture.base())/user/get", ""))?["sid"]?.string)
                #expect(try await Self.listed(there, fixture).isEmpty, "the other instance caches the empty list")

                let created = try #require(data(try await here.form("\(fixture.base())/room/create", "sid=\(sid)&roomName=Cached"))?["roomId"]?.int64)
                #expect(try await Self.listed(here, fixture) == [created], "the creator's instance lists the new room at once")
                #expect(try await Self.eventually { try await Self.listed(there, fixture) == [created] },
                        "the other instance forgot its list when the commit's notification came")

                let hidden = try await Self.unannouncedRoom(fixture)
                #expect(try await Self.listed(here, fixture) == [created], "served from memory: the unannounced row is not read")
                #expect(try await Self.listed(there, fixture) == [created], "served from memory on the other instance too")

                _ = try #require(data(try await here.form("\(fixture.base())/room/dissolve", "sid=\(sid)&roomId=\(created)")))
                #expect(try await Self.listed(here, fixture) == [hidden], "a dissolve is listed at once where it was made")
                #expect(try await Self.eventually { try await Self.listed(there, fixture) == [hidden] }, "and everywhere after its notification")
            }
        }
    }

    @Test func afterLosingItsListenAnInstanceReadsPostgreSQLAndStartsAgainFromEmpty() async throws {
        let fixture = try await AudioChatroomFixture(clock: SystemClock())
        let instance = try fixture.server.server()
        try await Self.live(instance) { http in
            let cache = instance.services.engine.listCache
            #expect(try await Self.eventually { cache.isListening })
            #expect(try await Self.listed(http, fixture).isEmpty)
            let hidden = try await Self.unannouncedRoom(fixture)
            #expect(try await Self.listed(http, fixture).isEmpty, "served from memory")

            // The instance's LISTEN connection (all its channels: #28) is lost,
            // as in a failover. Its last statement is one of its LISTENs until
            // its first ping, 2 s after it is in place.
            try await fixture.server.database.query("""
                SELECT pg_terminate_backend(pid) FROM pg_stat_activity
                WHERE datname = current_database() AND query LIKE 'LISTEN%roomkeeper_%' AND pid <> pg_backend_pid()
                """)
            #expect(try await Self.eventually { !cache.isListening }, "the lost LISTEN stops the cache")
            #expect(try await Self.listed(http, fixture) == [hidden], "without notifications the list is read from PostgreSQL")
            #expect(try await Self.eventually { cache.isListening }, "the LISTEN is back")
            #expect(try await Self.listed(http, fixture) == [hidden], "and the cache started again from empty")
        }
    }
}

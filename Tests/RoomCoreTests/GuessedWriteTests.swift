import Foundation
import PostgresNIO
import RoomCore
// The engine's tests make a session as a call would (`ClientCall.session`).
@_spi(RoomEngine) import RoomKit
import RoomTestSupport
import Testing

/// A client's create and dissolve as one statement each, with its commit
/// probe (#28, item 3), on an instance that has seen the caller's session
/// and the room: the statement checks what the instance guessed, and a guess
/// that another instance (or time) made wrong writes nothing and the write
/// goes the long way, with the same outcome as if nothing had been guessed.
@Suite struct GuessedWriteTests {
    struct Refused: Error, Equatable {}

    struct Client {
        let fixture: EngineFixture
        let accid: AccountID
        let sid: String

        static func make(_ fixture: EngineFixture) async throws -> Client {
            let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
            let account = try await accounts.createGuest(fixture.tenant.id, nickname: { _ in "guest" }, avatar: "")
            let sid = try await accounts.openSession(fixture.tenant.id, accid: account.accid, pluginID: TestRoomsPlugin.pluginID, ttlSeconds: 600).sid
            return Client(fixture: fixture, accid: account.accid, sid: sid)
        }

        var caller: CallerSession { CallerSession(sid: sid, refusal: Refused()) }

        func create(on engine: RoomEngine? = nil, _ name: String = "room") async throws -> Room {
            try await (engine ?? fixture.engine).create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: name, owner: ""), caller: caller,
                                                        replacingOpenRooms: true, in: fixture.tenant)
        }

        func dissolve(_ room: Room, on engine: RoomEngine? = nil) async throws -> Room {
            try await (engine ?? fixture.engine).dissolve(room.id, caller: caller, in: fixture.tenant, pluginID: TestRoomsPlugin.pluginID)
        }
    }

    /// Another instance on the same database, knowing nothing yet.
    static func otherInstance(_ fixture: EngineFixture) -> RoomEngine {
        let directory = fixture.tenants.directory
        return RoomEngine(database: fixture.database, clock: fixture.clock, registry: TestTenants.registry, tenants: { directory[$0] })
    }

    static func counting<T>(_ body: () async throws -> T) async throws -> (T, statements: Int) {
        let tally = StatementTally()
        let value = try await StatementTally.$current.withValue(tally) { try await body() }
        return (value, tally.count)
    }

    func openRooms(_ fixture: EngineFixture, of accid: AccountID) async throws -> Int {
        try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1) AND owner = '\(accid)' AND state = 'open'")
    }

    /// The first create reads the session (3 round trips); from then on a
    /// create is 2 and a dissolve of a room the instance made is 2.
    @Test func aKnownSessionCreatesAndDissolvesInTwoRoundTrips() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let (first, firstTrips) = try await Self.counting { try await client.create() }
        #expect(firstTrips == 3, "the session's read, the room's statement, its probe")
        #expect(first.owner == client.accid)
        let (closed, closeTrips) = try await Self.counting { try await client.dissolve(first) }
        #expect(closeTrips == 2, "the close and its probe")
        #expect(closed.state == .closed(.dissolved))
        let (second, secondTrips) = try await Self.counting { try await client.create() }
        #expect(secondTrips == 2, "the room's statement, guarded by the session, and its probe")
        #expect(second.owner == client.accid)
        let events = try await fixture.engine.store.events(fixture.tenant.id, first.id)
        #expect(events.map(\.kind.stored) == ["created", "closed"] && events.last?.actor == "account:\(client.accid)")
        #expect(try await fixture.chatroomCloses(first.id) == .init(queued: 0, closedInStatement: 1),
                "the guessed close closed the local chatroom in its statement")
        #expect(try await openRooms(fixture, of: client.accid) == 1)
    }

    /// A client that creates again without dissolving: its instance knows
    /// the session owns an open room, so it does not guess a create that
    /// would only find it (2 round trips wasted each time); the earlier room
    /// is dissolved first, as the long way always did.
    @Test func aCreateByASessionThatOwnsAnOpenRoomWastesNoGuess() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let first = try await client.create()
        let (second, trips) = try await Self.counting { try await client.create() }
        #expect(trips == 6, "the session and its rooms, the earlier room's read, close and probe, the room's statement and probe")
        #expect(try await fixture.engine.store.room(fixture.tenant.id, first.id)?.state == .closed(.dissolved))
        #expect(try await openRooms(fixture, of: client.accid) == 1 && second.owner == client.accid)
        _ = try await client.dissolve(second)
        let (_, afterDissolve) = try await Self.counting { try await client.create() }
        #expect(afterDissolve == 2, "after its dissolve, the create is guessed again")
    }

    /// One open room a creator, decided by PostgreSQL: creates by one
    /// session racing, on one instance and on two (each reads no open room,
    /// or the same one, and dissolves it), leave exactly one room open, as
    /// any serial order of them would; each create either made a room or
    /// was told to try again. Before the unique index, 8 racing creates left
    /// up to 8 open rooms.
    @Test func racingCreatesByOneSessionLeaveOneOpenRoom() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let engines = [fixture.engine, Self.otherInstance(fixture)]
        for round in 0..<6 {
            let made = await withTaskGroup(of: Room?.self) { group in
                for n in 0..<8 {
                    group.addTask { try? await client.create(on: engines[(n + round) % 2], "room \(round)-\(n)") }
                }
                return await group.reduce(into: [Room]()) { if let room = $1 { $0.append(room) } }
            }
            #expect(!made.isEmpty, "round \(round): at least one create won")
            #expect(try await openRooms(fixture, of: client.accid) == 1, "round \(round)")
            #expect(made.allSatisfy { $0.owner == client.accid })
        }
    }

    /// A session revoked elsewhere: the guessed create and dissolve write
    /// nothing, and the caller is refused as if nothing had been guessed.
    @Test func aSessionRevokedElsewhereIsRefusedAndNothingIsWritten() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let room = try await client.create()
        _ = try await AccountStore(database: fixture.database, clock: fixture.clock).revokeAccess(fixture.tenant.id, accid: client.accid)
        await #expect(throws: Refused.self) { try await client.dissolve(room) }
        await #expect(throws: Refused.self) { try await client.create() }
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
        #expect(try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1)") == 1)
        #expect(try await fixture.engine.store.events(fixture.tenant.id, room.id).map(\.kind.stored) == ["created"])
    }

    /// A room the creator opened on another instance: the guessed create
    /// finds it and writes nothing, then the long way dissolves it first.
    @Test func anEarlierRoomMadeElsewhereIsDissolvedFirst() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        _ = try await client.dissolve(try await client.create())
        let elsewhere = try await client.create(on: Self.otherInstance(fixture))
        let (room, trips) = try await Self.counting { try await client.create() }
        #expect(trips > 2, "the guess failed and the create read the session")
        #expect(try await fixture.engine.store.room(fixture.tenant.id, elsewhere.id)?.state == .closed(.dissolved))
        #expect(try await openRooms(fixture, of: client.accid) == 1)
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
    }

    /// A room changed on another instance since this one made it: the
    /// guessed close writes nothing, the dissolve reads it and closes it once.
    @Test func aRoomChangedElsewhereIsReadAgainAndClosedOnce() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let room = try await client.create()
        _ = try await Self.otherInstance(fixture).join(room.id, account: "guest-elsewhere", in: fixture.tenant, pluginID: nil)
        let (closed, trips) = try await Self.counting { try await client.dissolve(room) }
        #expect(trips == 5, "the guess and its probe (a write's, though it wrote nothing), the read, the close, its probe")
        #expect(closed.state == .closed(.dissolved))
        let events = try await fixture.engine.store.events(fixture.tenant.id, room.id).map(\.kind.stored)
        #expect(events.filter { $0 == "closed" }.count == 1, "\(events)")
    }

    /// What the instance knows would refuse (a stranger's dissolve): the
    /// refusal is the read's, and nothing is written.
    @Test func aStrangersDissolveIsRefusedByTheRead() async throws {
        let fixture = try await EngineFixture()
        let owner = try await Client.make(fixture), stranger = try await Client.make(fixture)
        let room = try await owner.create()
        _ = try await stranger.dissolve(try await stranger.create())
        await #expect(throws: RoomError.notOwner) { try await stranger.dissolve(room) }
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
    }

    /// A ban written without touching the room (its version unchanged): the
    /// guessed close checks it, writes nothing, and the read refuses.
    @Test func anOwnerBannedFromTheRoomSinceIsRefused() async throws {
        let fixture = try await EngineFixture()
        let client = try await Client.make(fixture)
        let room = try await client.create()
        try await fixture.database.query("""
            INSERT INTO bans (tenant_id, room_id, accid, kind, reason, created_by, created_at)
            VALUES (\(fixture.tenant.id), \(room.id), \(client.accid), 'ban', 'test', 'admin', \(fixture.clock.now()))
            """)
        await #expect(throws: RoomError.banned) { try await client.dissolve(room) }
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
    }
}

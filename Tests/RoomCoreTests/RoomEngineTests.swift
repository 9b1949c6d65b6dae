import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Synchronization
import Testing

@Suite struct RoomEngineTests {
    @Test func lifecycleWritesRoomEventsAndOutbox() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let room = try await fixture.room(owner: "alice")
        #expect(room.isOpen)
        #expect(room.expiresAt == fixture.clock.now().addingTimeInterval(3_600), "the plugin's default TTL")

        #expect(try await fixture.engine.join(room.id, account: "bob", in: tenant, pluginID: TestRoomsPlugin.pluginID) == .joined(room))
        if case .alreadyJoined = try await fixture.engine.join(room.id, account: "bob", in: tenant, pluginID: nil) {} else {
            Issue.record("joining twice is no new join")
        }
        try await fixture.engine.leave(room.id, account: "bob", in: tenant, pluginID: nil)
        await #expect(throws: RoomError.notMember) {
            try await fixture.engine.leave(room.id, account: "bob", in: tenant, pluginID: nil)
        }
        await #expect(throws: RoomError.notOwner) {
            try await fixture.engine.dissolve(room.id, by: .account("bob"), in: tenant, pluginID: nil)
        }
        let closed = try await fixture.engine.dissolve(room.id, by: .account("alice"), in: tenant, pluginID: nil)
        #expect(closed.state == .closed(.dissolved))
        await #expect(throws: RoomError.closed) {
            try await fixture.engine.dissolve(room.id, by: .account("alice"), in: tenant, pluginID: nil)
        }
        await #expect(throws: RoomError.closed) {
            try await fixture.engine.join(room.id, account: "carol", in: tenant, pluginID: nil)
        }

        let events = try await fixture.engine.store.events(tenant.id, room.id).map(\.kind.stored)
        #expect(events == ["created", "joined", "left", "closed"])
        // The local IM's chatroom effects were applied by the join's and the
        // close's own statements: nothing waits in the outbox.
        let outbox = try await OutboxStore(database: fixture.database).list(tenant.id, status: .pending, before: nil, limit: 10)
        #expect(outbox.isEmpty, "\(outbox.map(\.payload))")
        let written = try await fixture.count("""
            SELECT count(*)::int FROM im_events WHERE tenant_id = ANY($1) AND chatroom_id = '\(room.id)' AND kind IN ('message', 'closed')
            """)
        #expect(written == 2, "one chatroom message for the join, one chatroom close")
    }

    /// #16, finding 11: a room's id says nothing about any other room's.
    @Test func roomIDsAreRandomNotASequence() async throws {
        let fixture = try await EngineFixture()
        var ids: [RoomID] = []
        for index in 0..<12 { ids.append(try await fixture.room(owner: "owner\(index)").id) }
        #expect(ids.allSatisfy { RoomIDs.range.contains($0) }, "\(ids)")
        #expect(Set(ids).count == ids.count)
        let steps = zip(ids, ids.dropFirst()).map { $1 - $0 }
        #expect(steps.filter { $0 == 1 }.count < 3, "not consecutive: \(ids)")
        #expect(steps.filter { $0 > 0 }.count < steps.count, "not increasing: \(ids)")
    }

    /// Ids are checked by the keys, not by a query first (#19): a drawn id
    /// that an IM chatroom or a room already has is drawn again, and the
    /// other room's chatroom is left alone.
    @Test func aDrawnRoomIDThatIsTakenIsDrawnAgain() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let first = try await fixture.room(owner: "first")
        let second = try await fixture.room(owner: "second")
        // The second room's chatroom is gone: its id collides on the rooms' key, not the IM's.
        try await fixture.database.query("DELETE FROM im_chatrooms WHERE tenant_id = \(tenant.id) AND chatroom_id = \(String(second.id))")
        let fresh = RoomID(2_000_000_000) + RoomID.random(in: 0..<100_000_000)
        let draws = Draws([first.id, second.id, fresh])
        let directory = fixture.tenants.directory
        let engine = RoomEngine(database: fixture.database, clock: fixture.clock, registry: TestTenants.registry, tenants: { directory[$0] },
                                drawRoomID: { draws.next() })
        let room = try await engine.create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "third", owner: "third"), in: tenant, by: .account("third"))
        #expect(room.id == fresh && room.imChatroomID == String(fresh))
        #expect(draws.drawn == 3)
        #expect(try await fixture.engine.store.room(tenant.id, first.id)?.owner == "first")
        #expect(try await fixture.engine.store.room(tenant.id, second.id)?.owner == "second")
        #expect(try await fixture.count("SELECT count(*)::int FROM im_chatrooms WHERE tenant_id = ANY($1) AND chatroom_id = '\(first.id)' AND open") == 1,
                "the first room's chatroom was not touched")
        #expect(try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1)") == 3)
    }

    @Test func refusedTransitionsWriteNothing() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "alice")
        await #expect(throws: RoomError.notOwner) {
            try await fixture.engine.dissolve(room.id, by: .account("mallory"), in: fixture.tenant, pluginID: nil)
        }
        #expect(try await fixture.engine.store.events(fixture.tenant.id, room.id).map(\.kind.stored) == ["created"])
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
    }

    @Test func fiftyJoinsForOneSeatHaveOneWinner() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(capacity: 1)
        let outcomes = await withTaskGroup(of: Result<RoomEngine.JoinOutcome, any Error>.self) { group in
            for index in 0..<50 {
                group.addTask {
                    do { return .success(try await fixture.engine.join(room.id, account: "user\(index)", in: fixture.tenant, pluginID: nil)) }
                    catch { return .failure(error) }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        let winners = outcomes.filter { if case .success(.joined) = $0 { true } else { false } }
        let full = outcomes.filter { if case .failure(let error) = $0, error as? RoomError == .full(capacity: 1) { true } else { false } }
        #expect(winners.count == 1)
        #expect(full.count == 49)
        let members = try await fixture.engine.store.members(fixture.tenant.id, room.id).filter { $0.status == .joined }
        #expect(members.count == 1)
    }

    @Test func reservationHoldsThenLapsesIntoClosing() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "student")
        let until = fixture.clock.now().addingTimeInterval(1_800)
        _ = try await fixture.engine.reserve(room.id, for: ["teacher", "student"], until: until, onLapse: .close, by: .account("student"), in: fixture.tenant, pluginID: nil)
        await #expect(throws: RoomError.reservedForOthers) {
            try await fixture.engine.join(room.id, account: "stranger", in: fixture.tenant, pluginID: nil)
        }
        fixture.clock.advance(by: 1_801)
        #expect(try await fixture.engine.lapseDue(limit: 100, tenants: fixture.tenants.ids) == 1)
        let lapsed = try await fixture.engine.store.room(fixture.tenant.id, room.id)
        #expect(lapsed?.state == .closed(.lapsed))
    }

    @Test func aClaimedReservationNeverLapses() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "student")
        _ = try await fixture.engine.reserve(room.id, for: ["teacher"], until: fixture.clock.now().addingTimeInterval(60), onLapse: .close, by: .admin, in: fixture.tenant, pluginID: nil)
        _ = try await fixture.engine.join(room.id, account: "teacher", in: fixture.tenant, pluginID: nil)
        fixture.clock.advance(by: 120)
        #expect(try await fixture.engine.lapseDue(limit: 100, tenants: fixture.tenants.ids) == 0)
        #expect(try await fixture.engine.store.room(fixture.tenant.id, room.id)?.isOpen == true)
    }

    @Test func aReleasedReservationAdmitsAnyone() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room()
        _ = try await fixture.engine.reserve(room.id, for: ["vip"], until: fixture.clock.now().addingTimeInterval(60), onLapse: .release, by: .admin, in: fixture.tenant, pluginID: nil)
        fixture.clock.advance(by: 61)
        #expect(try await fixture.engine.lapseDue(limit: 100, tenants: fixture.tenants.ids) == 1)
        let released = try #require(try await fixture.engine.store.room(fixture.tenant.id, room.id))
        #expect(released.isOpen && released.reservation == nil)
        _ = try await fixture.engine.join(room.id, account: "anyone", in: fixture.tenant, pluginID: nil)
    }

    @Test func joinIMBeforeServerAsksTheIMProvider() async throws {
        let fixture = try await EngineFixture(pluginTable: "[plugins.test-rooms]\njoinRequiresIM = true\n")
        let room = try await fixture.room()
        let chatroom = try #require(room.imChatroomID)
        await #expect(throws: RoomError.notInIMChatroom) {
            try await fixture.engine.join(room.id, account: "dave", in: fixture.tenant, pluginID: nil)
        }
        let local = fixture.local()
        let connection = UUID()
        _ = try await local.connect(connection, accid: "dave", instance: "test")
        #expect(try await local.enter(chatroom, connection: connection, accid: "dave"))
        #expect(try await local.isMember("dave", of: chatroom))
        _ = try await fixture.engine.join(room.id, account: "dave", in: fixture.tenant, pluginID: nil)

        try await local.disconnect(connection)
        #expect(try await local.isMember("dave", of: chatroom) == false, "membership means connected and entered")
    }

    @Test func roomsOfOtherTenantsAndPluginsAreNotFound() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        let room = try await fixture.room(owner: "alice", in: fixture.tenants[0])
        await #expect(throws: RoomError.notFound) {
            try await fixture.engine.dissolve(room.id, by: .admin, in: fixture.tenants[1], pluginID: nil)
        }
        await #expect(throws: RoomError.notFound) {
            try await fixture.engine.join(room.id, account: "alice", in: fixture.tenants[1], pluginID: nil)
        }
        await #expect(throws: RoomError.notFound) {
            try await fixture.engine.dissolve(room.id, by: .account("alice"), in: fixture.tenants[0], pluginID: "another-plugin")
        }
        #expect(try await fixture.engine.store.room(fixture.tenants[1].id, room.id) == nil)
        #expect(try await fixture.engine.store.room(fixture.tenants[0].id, room.id)?.isOpen == true)
    }

    @Test func extendMovesTheDeadline() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(ttl: 60)
        let extended = try await fixture.engine.extend(room.id, bySeconds: 600, by: .admin, in: fixture.tenant, pluginID: nil)
        #expect(extended.expiresAt == room.expiresAt.addingTimeInterval(600))
        fixture.clock.advance(by: 61)
        #expect(try await fixture.engine.expireDue(limit: 10, tenants: fixture.tenants.ids) == 0)
    }

    @Test func banKeepsAnAccountOut() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        try await fixture.engine.ban(room.id, account: "troll", by: .account("host"), in: fixture.tenant, pluginID: nil)
        await #expect(throws: RoomError.banned) {
            try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        }
    }

    /// #41: a tenant ban left the account's own open rooms listed, their
    /// names often the reason for the ban. They are dissolved with it.
    @Test func aTenantBanDissolvesTheAccountsOwnOpenRooms() async throws {
        let fixture = try await EngineFixture()
        let own = try await fixture.room(owner: "mallory")
        let other = try await fixture.room(owner: "alice")
        _ = try await fixture.engine.banFromTenant("mallory", reason: "its room's name", by: .admin, in: fixture.tenant)
        #expect(try await fixture.engine.store.room(fixture.tenant.id, own.id)?.isOpen == false, "the banned owner's room is closed")
        #expect(try await fixture.engine.store.room(fixture.tenant.id, other.id)?.isOpen == true, "another owner's is not")
    }

    /// #41: one ban in force a scope, and a new one took its terms, so a
    /// host's 1-second kick replaced an admin's ban for good. The stricter
    /// stands; only an admin may change an admin's ban's terms to shorter.
    @Test func aHostsShortKickNeverShortensAnAdminsBan() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room(owner: "host")
        _ = try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        let admins = try await fixture.engine.ban(room.id, account: "troll", reason: "abuse", by: .admin, in: fixture.tenant, pluginID: nil)
        let kicked = try await fixture.engine.kick(room.id, account: "troll", forSeconds: 1, reason: "go", by: .account("host"),
                                                   in: fixture.tenant, pluginID: nil)
        #expect(kicked?.id == admins.id && kicked?.expiresAt == nil && kicked?.reason == "abuse", "the admin's ban stands: \(String(describing: kicked))")
        fixture.clock.advance(by: 5)
        await #expect(throws: RoomError.banned, "still out after the kick's second") {
            try await fixture.engine.join(room.id, account: "troll", in: fixture.tenant, pluginID: nil)
        }
        // A longer ban by anyone replaces a shorter one; an admin may set any terms.
        let hour = try await fixture.engine.ban(room.id, account: "troll", until: fixture.clock.now().addingTimeInterval(3_600), reason: "an hour",
                                                by: .admin, in: fixture.tenant, pluginID: nil)
        #expect(hour.expiresAt == fixture.clock.now().addingTimeInterval(3_600), "an admin shortens its own ban")
        let day = try await fixture.engine.ban(room.id, account: "troll", until: fixture.clock.now().addingTimeInterval(86_400), reason: "a day",
                                               by: .account("host"), in: fixture.tenant, pluginID: nil)
        #expect(day.expiresAt == fixture.clock.now().addingTimeInterval(86_400) && day.reason == "a day", "a stricter ban wins whoever makes it")
    }
}

/// Room ids handed out in order, for a test that needs collisions.
final class Draws: Sendable {
    private let state: Mutex<(ids: [RoomID], drawn: Int)>

    init(_ ids: [RoomID]) { state = Mutex((ids, 0)) }

    var drawn: Int { state.withLock { $0.drawn } }

    func next() -> RoomID {
        state.withLock { state in
            defer { state.drawn += 1 }
            return state.ids[min(state.drawn, state.ids.count - 1)]
        }
    }
}

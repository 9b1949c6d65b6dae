import Foundation
import PostgresNIO
import RoomCore
// The engine's tests make a session as a call would (`ClientCall.session`).
@_spi(RoomEngine) import RoomKit
import RoomProviders
import RoomTestSupport
import Testing

/// Creates and dissolves written in one statement (#28, item 3): the room,
/// its events, its local IM chatroom and the plugin's first rows are one
/// statement; a dissolve is decided on a read without a lock and applies
/// only if the room is still open at the version read.
@Suite struct WriteOnceTests {
    /// Eight dissolves of one room race joins, ten rounds: exactly one
    /// dissolve closes it, the rest are told it is closed; it has one
    /// `closed` event and one chatroom close (in its statement or queued),
    /// and its joined count is its joined members.
    @Test func racingDissolvesCloseARoomOnce() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        for round in 0..<10 {
            let room = try await fixture.room(owner: "host\(round)", capacity: 20)
            let results = await withTaskGroup(of: (dissolve: Bool, ok: Bool, error: RoomError?).self) { group in
                for index in 0..<12 {
                    group.addTask {
                        do {
                            if index % 3 == 2 {
                                _ = try await fixture.engine.join(room.id, account: "guest\(index)", in: tenant, pluginID: nil)
                                return (false, true, nil)
                            }
                            _ = try await fixture.engine.dissolve(room.id, by: .account("host\(round)"), in: tenant, pluginID: nil)
                            return (true, true, nil)
                        } catch {
                            return (index % 3 != 2, false, error as? RoomError)
                        }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let dissolves = results.filter(\.dissolve)
            #expect(dissolves.filter(\.ok).count == 1, "round \(round): one dissolve closes the room")
            #expect(dissolves.filter { !$0.ok }.allSatisfy { $0.error == .closed }, "round \(round): the others are told it is closed: \(dissolves)")
            #expect(try await fixture.engine.store.room(tenant.id, room.id)?.state == .closed(.dissolved))
            let events = try await fixture.engine.store.events(tenant.id, room.id).map(\.kind.stored)
            #expect(events.filter { $0 == "closed" }.count == 1, "round \(round): \(events)")
            // In the statement, or queued behind a racing join's IM effects.
            let closes = try await fixture.chatroomCloses(room.id)
            #expect(closes.queued + closes.closedInStatement == 1, "round \(round): the chatroom closed once: \(closes)")
            let joined = try await fixture.engine.store.members(tenant.id, room.id).filter { $0.status == .joined }.count
            #expect(try await fixture.count("SELECT joined_count FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(room.id)") == joined)
        }
    }

    /// A local chatroom closes in its room's close statement when nothing of
    /// the room waits in its IM lane: at once, with its `closed` event, and
    /// no outbox entry. When a chatroom message still waits, the close
    /// is queued behind it (closed first, the message would go dead against
    /// a closed chatroom) and the dispatcher delivers the message, then the close.
    @Test func aLocalChatroomClosesWithItsRoomUnlessEffectsWaitBeforeIt() async throws {
        let fixture = try await EngineFixture()
        let quiet = try await fixture.room(owner: "alice")
        _ = try await fixture.engine.dissolve(quiet.id, by: .account("alice"), in: fixture.tenant, pluginID: nil)
        #expect(try await fixture.chatroomCloses(quiet.id) == .init(queued: 0, closedInStatement: 1))
        #expect(try await fixture.local().isOpen(String(quiet.id)) == false, "closed with the room")

        let busy = try await fixture.room(owner: "carol")
        try await fixture.queueJoinMessage(busy, from: "dave")
        _ = try await fixture.engine.dissolve(busy.id, by: .account("carol"), in: fixture.tenant, pluginID: nil)
        #expect(try await fixture.chatroomCloses(busy.id) == .init(queued: 1, closedInStatement: 0))
        #expect(try await fixture.local().isOpen(String(busy.id)) == true, "open until the waiting message is delivered")
        let directory = fixture.tenants.directory
        let dispatcher = fixture.dispatcher(ProviderOutboxDeliverer(tenants: { directory[$0] }))
        while try await dispatcher.dispatchOnce() > 0 {}
        let entries = try await OutboxStore(database: fixture.database).list(fixture.tenant.id, status: nil, before: nil, limit: 10)
            .filter { $0.roomID == busy.id }
        #expect(entries.count == 2 && entries.allSatisfy { $0.status == .delivered }, "\(entries.map(\.status))")
        #expect(try await fixture.local().isOpen(String(busy.id)) == false)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM im_events WHERE tenant_id = ANY($1) AND chatroom_id = '\(busy.id)' AND kind = 'closed'
            """) == 1)
    }

    /// The local IM's chatroom is written by the room's statement: an id
    /// whose chatroom exists (a room the retention purge removed, its
    /// chatroom not yet) is drawn again, that chatroom left as it was, and
    /// nothing of the refused draw stays.
    @Test func aDrawnIDWhoseChatroomExistsIsDrawnAgainLeavingNothing() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let taken = RoomID(1_000_000_000) + RoomID.random(in: 0..<100_000_000)
        try await fixture.database.query("""
            INSERT INTO im_chatrooms (tenant_id, chatroom_id, name, creator, created_at) VALUES (\(tenant.id), \(String(taken)), 'older', 'someone', now())
            """)
        let fresh = RoomID(2_000_000_000) + RoomID.random(in: 0..<100_000_000)
        let draws = Draws([taken, fresh])
        let directory = fixture.tenants.directory
        let engine = RoomEngine(database: fixture.database, clock: fixture.clock, registry: TestTenants.registry, tenants: { directory[$0] },
                                drawRoomID: { draws.next() })
        let room = try await engine.create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "new", owner: "alice"), in: tenant, by: .account("alice"))
        #expect(room.id == fresh && room.imChatroomID == String(fresh))
        #expect(draws.drawn == 2)
        #expect(try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1) AND room_id = \(taken)") == 0)
        #expect(try await fixture.count("SELECT count(*)::int FROM room_events WHERE tenant_id = ANY($1) AND room_id = \(taken)") == 0)
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM im_chatrooms WHERE tenant_id = ANY($1) AND chatroom_id = '\(taken)' AND name = 'older' AND creator = 'someone'
            """) == 1, "the older chatroom was not touched")
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM im_chatrooms WHERE tenant_id = ANY($1) AND chatroom_id = '\(fresh)' AND creator = 'alice' AND open
            """) == 1, "the new room's chatroom was opened by its statement")
    }

    /// A client's dissolve reads its session with the room: none, a
    /// stranger's or another plugin's is refused and writes nothing; the
    /// owner's closes the room, its event naming the owner.
    @Test func aDissolveByASessionIsTheOwnersOnly() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let owner = try await accounts.createGuest(tenant.id, nickname: { _ in "owner" }, avatar: "")
        let stranger = try await accounts.createGuest(tenant.id, nickname: { _ in "stranger" }, avatar: "")
        let plugin = TestRoomsPlugin.pluginID
        let room = try await fixture.engine.create(NewRoom(pluginID: plugin, name: "mine", owner: owner.accid), in: tenant, by: .account(owner.accid))
        let ownerSid = try await accounts.openSession(tenant.id, accid: owner.accid, pluginID: plugin, ttlSeconds: 600).sid
        let strangerSid = try await accounts.openSession(tenant.id, accid: stranger.accid, pluginID: plugin, ttlSeconds: 600).sid
        let otherPluginSid = try await accounts.openSession(tenant.id, accid: owner.accid, pluginID: "audio-chatroom", ttlSeconds: 600).sid
        struct Refused: Error, Equatable {}
        for sid in [nil, "no-such-sid", otherPluginSid] {
            await #expect(throws: Refused.self) {
                try await fixture.engine.dissolve(room.id, caller: CallerSession(sid: sid, refusal: Refused()), in: tenant, pluginID: plugin)
            }
        }
        await #expect(throws: RoomError.notOwner) {
            try await fixture.engine.dissolve(room.id, caller: CallerSession(sid: strangerSid, refusal: Refused()), in: tenant, pluginID: plugin)
        }
        #expect(try await fixture.engine.store.room(tenant.id, room.id)?.isOpen == true)
        #expect(try await fixture.engine.store.events(tenant.id, room.id).map(\.kind.stored) == ["created"])
        let closed = try await fixture.engine.dissolve(room.id, caller: CallerSession(sid: ownerSid, refusal: Refused()), in: tenant, pluginID: plugin)
        #expect(closed.state == .closed(.dissolved))
        let events = try await fixture.engine.store.events(tenant.id, room.id)
        #expect(events.map(\.kind.stored) == ["created", "closed"] && events.last?.actor == "account:\(owner.accid)")
    }
}

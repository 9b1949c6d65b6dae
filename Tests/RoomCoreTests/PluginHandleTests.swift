import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// A route's handles are bound to its tenant and plugin (#28, item 1): what
/// it reaches through `call.rooms` and `call.accounts` is its own tenant's
/// rooms of its own plugin, whatever ids it passes.
@Suite struct PluginHandleTests {
    static func call(_ fixture: EngineFixture, tenant: Tenant, pluginID: String) -> ClientCall<Void> {
        let services = RoomServices(database: fixture.database, clock: fixture.clock, engine: fixture.engine, tenants: fixture.tenants.directory)
        return ClientCallParts(tenant: tenant, policy: RoomPolicy(ttlSeconds: 60, capacity: 10), parameters: WireParameters([:]), headers: [:],
                               clientAddress: "127.0.0.1", services: services, logger: fixture.logger)
            .call(pluginID: pluginID, settings: (), tables: [])
    }

    @Test func roomsOfAnotherPluginOrTenantAreNotFound() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        let mine = try await fixture.room(owner: "owner")
        let theirs = try await fixture.room(owner: "owner", in: fixture.tenants[1])
        let own = Self.call(fixture, tenant: fixture.tenant, pluginID: TestRoomsPlugin.pluginID)
        #expect(try await own.rooms.live(mine.id).id == mine.id)
        #expect(try await own.rooms.find(theirs.id) == nil, "another tenant's room")
        await #expect(throws: RoomError.notFound) { try await own.rooms.live(theirs.id) }
        await #expect(throws: RoomError.notFound) { try await own.rooms.dissolve(theirs.id, by: .admin) }

        let other = Self.call(fixture, tenant: fixture.tenant, pluginID: "another-plugin")
        #expect(try await other.rooms.find(mine.id) == nil, "another plugin's room")
        await #expect(throws: RoomError.notFound) { try await other.rooms.join(mine.id, account: "guest") }
        await #expect(throws: RoomError.notFound) { try await other.rooms.mutate(mine.id) { _ in } }
        #expect(try await other.rooms.members(mine).isEmpty)
        #expect(try await fixture.engine.liveRoom(mine.id, in: fixture.tenant, pluginID: TestRoomsPlugin.pluginID).isOpen,
                "nothing above closed it")
    }

    @Test func aRouteCreatesRoomsOfItsOwnPluginOnly() async throws {
        let fixture = try await EngineFixture()
        let own = Self.call(fixture, tenant: fixture.tenant, pluginID: TestRoomsPlugin.pluginID)
        let made = try await own.createRoom(NewRoom(name: "mine", owner: "owner"), by: .account("owner"))
        #expect(made.pluginID == TestRoomsPlugin.pluginID)
        await #expect(throws: RoomError.pluginNotEnabled("another-plugin")) {
            try await own.createRoom(NewRoom(pluginID: "another-plugin", name: "theirs", owner: "owner"), by: .account("owner"))
        }
    }

    /// #29: the IM a plugin reaches issues no token to an account banned
    /// from the tenant; the tenant's other accounts get theirs.
    @Test func aPluginsIMIssuesNoTokenToATenantBannedAccount() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        _ = try await fixture.engine.banFromTenant("mallory", by: .admin, in: fixture.tenant)
        let call = Self.call(fixture, tenant: fixture.tenant, pluginID: TestRoomsPlugin.pluginID)
        let mallory = Account(accid: "mallory", nickname: "m"), trent = Account(accid: "trent", nickname: "t")
        await #expect(throws: RoomError.banned) { try await call.im(of: mallory).create(name: "m") }
        await #expect(throws: RoomError.banned) { try await call.im(of: mallory).refreshToken() }
        #expect(try await !call.im(of: trent).create(name: "t").token.isEmpty)
        let other = Self.call(fixture, tenant: fixture.tenants[1], pluginID: TestRoomsPlugin.pluginID)
        #expect(try await !other.im(of: mallory).create(name: "m").token.isEmpty, "another tenant's")
    }

    /// #42: a plugin reaches its tenant's media only through handles of its
    /// own rooms (the providers themselves are not visible to it): another
    /// plugin's or tenant's room gets no chatroom, count or intercom, and a
    /// stream is signed only under a name that carries its room's id.
    @Test func mediaHandlesAreOfTheCallsOwnRoomsOnly() async throws {
        let fixture = try await EngineFixture(tenantCount: 2)
        let mine = try await fixture.room(owner: "owner")
        let theirs = try await fixture.room(owner: "owner", in: fixture.tenants[1])
        let own = Self.call(fixture, tenant: fixture.tenant, pluginID: TestRoomsPlugin.pluginID)
        #expect(try own.chatroom(of: mine)?.id == mine.imChatroomID)
        #expect(try await own.onlineCounts(of: [mine]).keys.sorted() == (mine.imChatroomID == nil ? [] : [mine.id]))
        #expect(throws: ForeignRoom.self, "another tenant's room") { try own.chatroom(of: theirs) }
        let other = Self.call(fixture, tenant: fixture.tenant, pluginID: "another-plugin")
        #expect(throws: ForeignRoom.self, "another plugin's room") { try other.chatroom(of: mine) }
        await #expect(throws: ForeignRoom.self) { try await other.onlineCounts(of: [mine]) }
        await #expect(throws: ForeignRoom.self) { try await other.intercomSession(of: mine, expiresAt: fixture.clock.now().addingTimeInterval(60)) }
        #expect(try own.stream("quiz-\(mine.id)", of: mine.id).name == "quiz-\(mine.id)")
        #expect(try own.stream("headset-\(mine.id)-x7k", of: mine.id).name == "headset-\(mine.id)-x7k")
        #expect(throws: StreamNotOfRoom.self) { try own.stream("quiz-\(theirs.id)", of: mine.id) }
        #expect(throws: StreamNotOfRoom.self) { try own.stream("quiz", of: mine.id) }
    }
}

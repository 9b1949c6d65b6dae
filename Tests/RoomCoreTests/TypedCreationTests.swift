import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// A client route hands its plugin's `Creation` typed (#42 item 3): the
/// value reaches `prepareRoom` and `firstRows` as the route built it,
/// never through JSON; only the admin API's `options` are decoded.
@Suite struct TypedCreationTests {
    /// Rooms rung for a date, with a note no JSON object carries (a
    /// closure): only a typed value can reach the plugin.
    struct RingingPlugin: RoomPlugin {
        typealias Settings = Void
        static let pluginID = "typed-ringing"

        struct Creation: Sendable {
            var ringsAt: Date
            var note: @Sendable () -> String
            /// Set by `prepareRoom`: `firstRows` sees the checked value.
            var checked = false
        }

        struct Look: Codable, Sendable {
            var note: String
            var ringsAt: Double
        }

        typealias Attributes = Look

        var id: String { Self.pluginID }
        var wire: WireProtocol { .netease }
        var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 600, capacity: 2) }
        func readSettings(_ reader: SettingsReader) {}
        func routes() -> [ClientRoute<Void>] { [] }

        /// The admin API's options: `{"note": …, "ringsAt": seconds}`.
        func creation(from options: JSONValue) throws -> Creation {
            guard let note = options["note"]?.string else { throw RoomError.invalidOptions(field: "options.note", reason: "is required") }
            return Creation(ringsAt: Date(timeIntervalSince1970: options["ringsAt"]?.double ?? 0), note: { note })
        }

        func prepareRoom(_ spec: inout NewRoom, creation: inout Creation, settings: Void, now: Date) throws {
            guard creation.ringsAt > now else { throw RoomError.invalidOptions(field: "options.ringsAt", reason: "must be in the future") }
            try spec.setAttributes(Look(note: creation.note(), ringsAt: creation.ringsAt.timeIntervalSince1970))
            creation.checked = true
        }

        /// The create is one statement only for a checked creation; an
        /// unchecked one would reach `roomCreated`, which refuses it.
        func firstRows(of spec: NewRoom, creation: Creation, settings: Void) -> FirstRows? { creation.checked ? .empty : nil }

        func roomCreated(_ room: Room, creation: Creation, hook: HookContext<Void>) async throws -> [OutboxMessage] {
            throw RoomError.invalid(field: "creation", reason: "reached the plugin unchecked")
        }
    }

    /// A second plugin of the same settings type, whose instance a route of the first cannot hand.
    struct OtherPlugin: RoomPlugin {
        typealias Settings = Void
        var id: String { "typed-other" }
        var wire: WireProtocol { .netease }
        var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 600, capacity: 2) }
        func readSettings(_ reader: SettingsReader) {}
        func routes() -> [ClientRoute<Void>] { [] }
    }

    struct Fixture {
        let engine: EngineFixture
        let roomEngine: RoomEngine
        let tenant: Tenant

        init() async throws {
            engine = try await EngineFixture()
            let registry = PluginRegistry([AnyRoomPlugin(RingingPlugin()), AnyRoomPlugin(OtherPlugin())])
            let tenants = try TestTenants(pluginTables: ["[plugins.typed-ringing]\n[plugins.typed-other]\n"], database: engine.database,
                                          clock: engine.clock, registry: registry)
            let directory = tenants.directory
            roomEngine = RoomEngine(database: engine.database, clock: engine.clock, registry: registry, tenants: { directory[$0] })
            tenant = tenants[0]
        }

        func call() -> ClientCall<Void> {
            let services = RoomServices(database: engine.database, clock: engine.clock, engine: roomEngine, tenants: engine.tenants.directory)
            return ClientCallParts(tenant: tenant, policy: RoomPolicy(ttlSeconds: 600, capacity: 2), parameters: WireParameters([:]), headers: [:],
                                   clientAddress: "127.0.0.1", services: services, logger: engine.logger)
                .call(pluginID: RingingPlugin.pluginID, settings: (), tables: [])
        }

        func openRooms() async throws -> Int {
            try await roomEngine.store.count(tenant.id, pluginID: RingingPlugin.pluginID, state: "open")
        }
    }

    @Test func aRoutesTypedCreationReachesThePluginChecked() async throws {
        let fixture = try await Fixture()
        let ringsAt = fixture.engine.clock.now().addingTimeInterval(30)
        let room = try await fixture.call().createRoom(NewRoom(name: "call", owner: "caller"),
                                                       creating: .init(ringsAt: ringsAt, note: { "from a closure" }), of: RingingPlugin(),
                                                       by: .account("caller"), counted: true)
        let look = try #require(room.attributes(as: RingingPlugin.Look.self))
        #expect(look.note == "from a closure")
        #expect(look.ringsAt == ringsAt.timeIntervalSince1970)

        // The plugin's check runs on the typed path as on the admin API's.
        let past = RingingPlugin.Creation(ringsAt: fixture.engine.clock.now().addingTimeInterval(-1), note: { "late" })
        await #expect(throws: RoomError.invalidOptions(field: "options.ringsAt", reason: "must be in the future")) {
            try await fixture.call().createRoom(NewRoom(name: "late", owner: "caller"), creating: past, of: RingingPlugin(), by: .account("caller"), counted: true)
        }
        #expect(try await fixture.openRooms() == 1, "the refused create wrote nothing")
    }

    @Test func theAdminAPIsOptionsAreDecodedOnce() async throws {
        let fixture = try await Fixture()
        let ringsAt = fixture.engine.clock.now().addingTimeInterval(60).timeIntervalSince1970.rounded()
        let room = try await fixture.roomEngine.create(
            NewRoom(pluginID: RingingPlugin.pluginID, name: "admin's", owner: "caller", options: ["note": "as JSON", "ringsAt": .number(ringsAt)]),
            in: fixture.tenant, by: .admin)
        #expect(room.attributes(as: RingingPlugin.Look.self)?.note == "as JSON")
        await #expect(throws: RoomError.invalidOptions(field: "options.note", reason: "is required")) {
            try await fixture.roomEngine.create(NewRoom(pluginID: RingingPlugin.pluginID, name: "bare", owner: "caller"), in: fixture.tenant, by: .admin)
        }
    }

    @Test func aRouteCannotPassJSONOrAnotherPluginsCreation() async throws {
        let fixture = try await Fixture()
        let call = fixture.call()
        // JSON options from a route are the defect #42 named (a sealed secret under an undeclared key).
        await #expect(throws: ClientRouteOptionsRefused.self) {
            try await call.createRoom(NewRoom(pluginID: RingingPlugin.pluginID, name: "json", owner: "caller", options: ["note": "smuggled"]),
                                      by: .account("caller"), counted: true)
        }
        await #expect(throws: RoomError.pluginNotEnabled("typed-other")) {
            try await call.createRoom(NewRoom(name: "other", owner: "caller"), creating: NoCreation(), of: OtherPlugin(), by: .account("caller"),
                                      counted: true)
        }
        #expect(try await fixture.openRooms() == 0, "nothing was written")
    }

    /// A plugin whose attributes write the test plugin's `bgId` as text
    /// (and read any object).
    struct TextBackgroundPlugin: RoomPlugin {
        struct Look: Codable, Sendable {
            var bgId: String?

            init(from decoder: any Decoder) throws { bgId = nil }
        }

        typealias Settings = Void
        typealias Attributes = Look
        var id: String { "text-background" }
        var wire: WireProtocol { .netease }
        var defaultPolicy: RoomPolicy { RoomPolicy(ttlSeconds: 600, capacity: 2) }
        func readSettings(_ reader: SettingsReader) {}
        func routes() -> [ClientRoute<Void>] { [] }
    }

    /// Attributes are changed as the plugin's own type (#42 item 3, no
    /// untyped patch): a value the room's plugin cannot read is refused by
    /// the engine and nothing is written.
    @Test func attributesAreWrittenAsTheRoomsPluginsType() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine, tenant = fixture.tenant, plugin = TestRoomsPlugin.pluginID
        let room = try await fixture.room()
        try await engine.mutate(room.id, in: tenant, pluginID: plugin, tables: []) { tx in
            try await tx.updateAttributes(of: TestRoomsPlugin.self) { $0.bgId = 2 }
            #expect(tx.room.attributes(as: TestRoomsPlugin.Look.self)?.bgId == 2, "the transaction's room shows its own change")
            try await tx.updateAttributes(of: TestRoomsPlugin.self) { $0.bgId = ($0.bgId ?? 0) + 1 }
        }
        #expect(try await engine.store.room(tenant.id, room.id)?.attributes(as: TestRoomsPlugin.Look.self)?.bgId == 3)

        let refusal = await #expect(throws: (any Error).self) {
            try await engine.mutate(room.id, in: tenant, pluginID: plugin, tables: []) { tx in
                try await tx.updateAttributes(of: TextBackgroundPlugin.self) { $0.bgId = "blue" }
            }
        }
        #expect(String(describing: refusal).contains("set room attributes that do not decode"), "\(String(describing: refusal))")
        let stored = try #require(try await engine.store.room(tenant.id, room.id))
        #expect(stored.attributes(as: TestRoomsPlugin.Look.self)?.bgId == 3, "refused, nothing written: \(stored.attributes)")
    }
}

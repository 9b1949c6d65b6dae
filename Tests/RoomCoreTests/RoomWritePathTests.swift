import Foundation
import RoomCore
// The engine's tests make a session as a call would (`ClientCall.session`).
@_spi(RoomEngine) import RoomKit
import RoomTestSupport
import Testing

/// #42: every room write goes through the one commit (`RoomEngine.commit`),
/// whose epilogue comes from what the writes recorded. The engine's public
/// methods are listed here, each a write or a read; every write is run
/// against PostgreSQL under a `StatementTally`, which keeps any statement
/// that wrote a room or a membership outside a commit. A new public method
/// fails `everyPublicMethodIsListed` until it is listed, and a write listed
/// fails `everyWriteEntryPointCommitsThroughTheOneCommit` until it is run
/// there, and then if it bypasses the commit.
@Suite struct RoomWritePathTests {
    static let writes: Set<String> = [
        "create(_:in:by:preparing:)", "create(_:caller:replacingOpenRooms:in:preparing:)", "join(_:account:role:in:pluginID:)", "join(_:account:role:in:pluginID:answer:_:)",
        "join(_:caller:role:in:pluginID:answer:_:)",
        "leave", "reserve", "extend", "dissolve(_:by:in:pluginID:)", "dissolve(_:caller:in:pluginID:)", "change", "mutate", "onLockedRow",
        "kick", "ban", "banFromTenant", "lift", "mute", "expireDue", "lapseDue", "readmitDue", "applyProviderEvents",
    ]
    static let reads: Set<String> = ["openRooms", "liveRoom", "isLive", "isMuted"]
    /// The repository, whose sources the text checks read.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The engine's public methods, read from its sources: a name, with its
    /// argument labels where the name is overloaded.
    static func publicMethods() throws -> Set<String> {
        let sources = Self.root.appendingPathComponent("Sources/RoomCore")
        var found: [(name: String, labels: String)] = []
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let method = #/public func (\w+)(?:<[^>]*>)?\(([^)]*)/#
        for file in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            guard text.contains("extension RoomEngine {") || text.contains("public struct RoomEngine") else { continue }
            // Only the engine's own body and extensions, not other types in the file.
            for block in text.components(separatedBy: "\n}\n") where block.contains("extension RoomEngine {") || block.contains("public struct RoomEngine") {
                for match in block.matches(of: method) {
                    let labels = match.2.split(separator: ",").map { parameter -> String in
                        let words = parameter.split(separator: ":")[0].split(whereSeparator: \.isWhitespace).filter { !$0.hasPrefix("@") }
                        return (words.first.map(String.init) ?? "_") + ":"
                    }
                    found.append((String(match.1), labels.joined()))
                }
            }
        }
        let counts = Dictionary(grouping: found, by: \.name).mapValues(\.count)
        return Set(found.map { counts[$0.name]! > 1 ? "\($0.name)(\($0.labels))" : $0.name })
    }

    @Test func everyPublicMethodIsListed() throws {
        let methods = try Self.publicMethods()
        #expect(methods.count > 20, "the sources were read: \(methods.sorted())")
        #expect(methods.subtracting(Self.writes).subtracting(Self.reads).isEmpty, "list each new method as a write or a read (and run it below)")
        #expect(Self.writes.union(Self.reads).subtracting(methods).isEmpty, "a listed method is gone")
    }

    struct Refused: Error {}
    struct Player: RoomRow, Equatable {
        typealias Column = CodingKeys
        enum CodingKeys: String, CodingKey, CaseIterable { case accid }
        let accid: String
    }

    /// Each write entry point, run once; the statements that wrote a room or
    /// a membership outside a commit must be none.
    @Test func everyWriteEntryPointCommitsThroughTheOneCommit() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine, tenant = fixture.tenant, plugin = TestRoomsPlugin.pluginID
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let guest = try await accounts.createGuest(tenant.id, nickname: { _ in "guest" }, avatar: "")
        let sid = try await accounts.openSession(tenant.id, accid: guest.accid, pluginID: plugin, ttlSeconds: 600).sid
        let caller = CallerSession(sid: sid, refusal: Refused())
        // A table of rows per room the test database has (live-quiz's), read by the engine only.
        let table = RoomRowTable<Player>(name: "quiz_players", key: .accid, stamp: nil)
        let room = try await fixture.room(owner: "host")
        let other = try await fixture.room(owner: "host2", ttl: 60)

        var ran: [String: [String]] = [:]
        func run(_ name: String, _ body: () async throws -> Void) async throws {
            let tally = StatementTally()
            do {
                try await StatementTally.$current.withValue(tally) { try await body() }
            } catch {
                Issue.record("\(name) failed: \(String(reflecting: error))")
                throw error
            }
            #expect(tally.count > 0, "\(name) sent nothing")
            ran[name] = tally.roomWritesOutsideCommit
        }

        try await run("create(_:in:by:preparing:)") { _ = try await fixture.room(owner: "a") }
        try await run("create(_:caller:replacingOpenRooms:in:preparing:)") {
            _ = try await engine.create(NewRoom(pluginID: plugin, name: "mine", owner: ""), caller: caller, replacingOpenRooms: true, in: tenant)
        }
        try await run("join(_:account:role:in:pluginID:)") { _ = try await engine.join(room.id, account: "m1", in: tenant, pluginID: nil) }
        try await run("join(_:account:role:in:pluginID:answer:_:)") {
            _ = try await engine.join(room.id, account: "m2", role: "member", in: tenant, pluginID: plugin, answer: "capacity") { room in room.capacity }
        }
        try await run("join(_:caller:role:in:pluginID:answer:_:)") {
            _ = try await engine.join(room.id, caller: caller, role: "member", in: tenant, pluginID: plugin, answer: "capacity") { room in room.capacity }
        }
        try await run("leave") { try await engine.leave(room.id, account: "m1", in: tenant, pluginID: nil) }
        try await run("reserve") {
            _ = try await engine.reserve(other.id, for: ["x"], until: fixture.clock.now().addingTimeInterval(5), onLapse: .release, by: .admin, in: tenant, pluginID: nil)
        }
        try await run("extend") { _ = try await engine.extend(room.id, bySeconds: 60, by: .admin, in: tenant, pluginID: nil) }
        try await run("change") {
            _ = try await engine.change(room.id, in: tenant, pluginID: plugin, rows: table) { snapshot in (RoomChange<Player>(), snapshot.rows.count) }
        }
        try await run("mutate") {
            try await engine.mutate(room.id, in: tenant, pluginID: plugin, tables: []) { tx in try await tx.updateAttributes(of: TestRoomsPlugin.self) { $0.bgId = 1 } }
        }
        try await run("onLockedRow") {
            _ = try await engine.onLockedRow(room.id, in: tenant, pluginID: plugin, tables: [table.name], rows: table, key: "m2", enteringAs: "m2") { row, _ in row }
        }
        try await run("kick") { try await engine.kick(room.id, account: "m2", forSeconds: nil, reason: "", by: .admin, in: tenant, pluginID: nil) }
        try await run("ban") { _ = try await engine.ban(room.id, account: "m3", reason: "", by: .admin, in: tenant, pluginID: nil) }
        let mute = try await engine.mute(room.id, account: "m4", until: nil, reason: "", by: .admin, in: tenant, pluginID: nil)
        try await run("mute") { _ = try await engine.mute(room.id, account: "m5", until: nil, reason: "", by: .admin, in: tenant, pluginID: nil) }
        try await run("lift") { _ = try await engine.lift(mute.id, by: .admin, in: tenant) }
        try await run("banFromTenant") { _ = try await engine.banFromTenant("m6", by: .admin, in: tenant) }
        try await run("applyProviderEvents") {
            try await engine.applyProviderEvents([.stream(name: "s-\(room.id)", live: true)], tenant: tenant, provider: "tencent", receipt: "r-\(room.id)")
        }
        try await run("dissolve(_:by:in:pluginID:)") { _ = try await engine.dissolve(room.id, by: .admin, in: tenant, pluginID: nil) }
        let mine = try await fixture.room(owner: guest.accid)
        try await run("dissolve(_:caller:in:pluginID:)") { _ = try await engine.dissolve(mine.id, caller: caller, in: tenant, pluginID: plugin) }
        fixture.clock.advance(by: 3_600)
        try await run("lapseDue") { _ = try await engine.lapseDue(limit: 10, tenants: fixture.tenants.ids) }
        try await run("expireDue") { _ = try await engine.expireDue(limit: 100, tenants: fixture.tenants.ids) }
        try await run("readmitDue") { _ = try await engine.readmitDue(limit: 10, tenants: fixture.tenants.ids) }

        #expect(Set(ran.keys) == Self.writes, "every write entry point is run here")
        for (name, bypasses) in ran.sorted(by: { $0.key < $1.key }) {
            #expect(bypasses.isEmpty, "\(name) wrote a room outside the commit: \(bypasses)")
        }
    }

    /// A backstop for what the types enforce (only a commit makes a
    /// `RoomWrites` or a `RoomStatement`): the SQL that writes a room or a
    /// membership is written only in the files whose statements those two
    /// send, and in the retention purge, which deletes rooms closed long ago.
    @Test func roomWritingSQLLivesOnlyOnTheCommitsPath() throws {
        let allowed: Set<String> = [
            "RoomWrites.swift", "RoomBirth.swift", "RoomClose.swift", "RoomDeadline.swift", "RoomEngine+Change.swift", "RoomEngine+Removal.swift", "RoomEngine+MuteOnce.swift", "RoomEngine+LiftOnce.swift",
            "RetentionPurger.swift",
        ]
        let write = #/(?i)(UPDATE|INSERT\s+INTO|DELETE\s+FROM)\s+(rooms|room_members)\b/#
        var writers: Set<String> = []
        for folder in ["Sources", "Plugins"] {
            let files = FileManager.default.enumerator(at: Self.root.appendingPathComponent(folder), includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                if try String(contentsOf: file, encoding: .utf8).contains(write) { writers.insert(file.lastPathComponent) }
            }
        }
        #expect(writers.contains("RoomWrites.swift"), "the sources were read")
        #expect(writers.subtracting(allowed).isEmpty, "room SQL outside the commit's path: send it through RoomWrites or RoomStatement")
    }

    /// The tally sees a bypass: a room written outside a commit is kept.
    @Test func aRoomWrittenOutsideTheCommitIsSeen() async throws {
        let fixture = try await EngineFixture()
        let room = try await fixture.room()
        let tally = StatementTally()
        try await StatementTally.$current.withValue(tally) {
            _ = try await fixture.database.query("UPDATE rooms SET version = version + 1 WHERE tenant_id = \(fixture.tenant.id) AND room_id = \(room.id)")
        }
        #expect(tally.roomWritesOutsideCommit.count == 1)
    }

    /// A plugin's attributes are listed at once on the instance that wrote
    /// them (SealMic's `bgId`): before the one commit, `mutate` left its list
    /// as it was until PostgreSQL's notification came back.
    @Test func attributesWrittenByAPluginAreListedAtOnce() async throws {
        let fixture = try await EngineFixture()
        let engine = fixture.engine, tenant = fixture.tenant, plugin = TestRoomsPlugin.pluginID
        engine.listCache.startListening()
        let room = try await fixture.room()
        let before = try await engine.openRooms(tenant.id, pluginID: plugin, limit: 10)
        #expect(before.rooms.map(\.room.id) == [room.id])
        try await engine.mutate(room.id, in: tenant, pluginID: plugin, tables: []) { tx in try await tx.updateAttributes(of: TestRoomsPlugin.self) { $0.bgId = 3 } }
        let after = try await engine.openRooms(tenant.id, pluginID: plugin, limit: 10)
        #expect(after.rooms.first?.room.attributes(as: TestRoomsPlugin.Look.self)?.bgId == 3, "listed: \(after.rooms.first?.room.attributes ?? "none")")
    }
}

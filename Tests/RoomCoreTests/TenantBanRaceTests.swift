import Foundation
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

/// #29: a tenant ban racing joins of the account. A join that checked for
/// bans just before the ban committed could commit its membership after
/// the ban had looked for the rooms to take the account out of, and stay:
/// a banned account joined in an open room. Now the ban and the join take
/// the account's lock (exclusive / shared), so each join either finishes
/// before the ban looks or sees the ban.
@Suite struct TenantBanRaceTests {
    @Test func noJoinOutlivesATenantBanItRaced() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        var rooms: [RoomID] = []
        for index in 0..<6 { rooms.append(try await fixture.room(owner: "host\(index)", capacity: 100).id) }
        for round in 0..<40 {
            let account = "racer\(round)"
            await withTaskGroup(of: Void.self) { group in
                for room in rooms {
                    group.addTask { _ = try? await fixture.engine.join(room, account: account, in: tenant, pluginID: nil) }
                }
                group.addTask {
                    // Let the first joins start, so the ban lands in the middle of them.
                    try? await Task.sleep(for: .microseconds(Int.random(in: 0...1_500)))
                    do { _ = try await fixture.engine.banFromTenant(account, reason: "race", by: .admin, in: tenant) } catch { Issue.record("the ban failed: \(error)") }
                }
                await group.waitForAll()
            }
            let joined = try await fixture.count("""
                SELECT count(*)::int FROM room_members m JOIN rooms r ON r.tenant_id = m.tenant_id AND r.room_id = m.room_id
                WHERE m.tenant_id = ANY($1) AND m.accid = '\(account)' AND m.status = 'joined' AND r.state = 'open'
                """)
            #expect(joined == 0, "round \(round): \(account) is banned from the tenant yet joined in \(joined) open rooms")
        }
    }

    /// #41: a create racing a tenant ban of its owner. The create's
    /// statement, past its checks, is held at a gate before its room is
    /// written while the ban runs: before, the ban committed and looked for
    /// the account's open rooms meanwhile, found none, and the room then
    /// committed, open and listed, owned by a banned account. Now the create
    /// holds the account's lock shared, so the ban waits for it and then
    /// dissolves the room.
    @Test func noCreateOutlivesATenantBanItRaced() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant
        let account = "creator-\(uniqueID())"
        let gate = try await StatementGate(fixture.database, table: "rooms", on: "INSERT", when: "NEW.owner = '\(account)'")
        let creating = Task {
            try await fixture.engine.create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "racing", owner: account), in: tenant, by: .account(account))
        }
        #expect(try await StatementGate.until(10) { try await gate.waiting() == 1 }, "the create reached the gate")
        let banned = Flag()
        let banning = Task {
            defer { banned.set() }
            return try await fixture.engine.banFromTenant(account, reason: "race", by: .admin, in: tenant)
        }
        _ = try await StatementGate.until(2) { banned.isSet }
        try await gate.open()
        _ = try? await creating.value
        _ = try await banning.value
        let open = try await fixture.count("SELECT count(*)::int FROM rooms WHERE tenant_id = ANY($1) AND owner = '\(account)' AND state = 'open'")
        #expect(open == 0, "\(account) is banned from the tenant yet owns \(open) open rooms")
        await #expect(throws: RoomError.banned) {
            try await fixture.engine.create(NewRoom(pluginID: TestRoomsPlugin.pluginID, name: "after", owner: account), in: tenant, by: .account(account))
        }
    }
}

/// Set once, read from any task.
private final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

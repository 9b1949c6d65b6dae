import Foundation
import RoomCore
import RoomTestSupport
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
}

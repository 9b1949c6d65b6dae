import Foundation
@testable import RoomCore
import RoomTestSupport
import Testing

/// #43: a move's check inside its fence compares each table's count of the
/// tenant's rows and their checksum on both sides. The checksum is the sum
/// of the rows' hashes, so it must not depend on the rows' order (the
/// target's copy lays them out in its own), and must see any one changed
/// value, and only the tenant's rows.
@Suite struct TenantMoveDigestTests {
    @Test func theChecksumSeesAChangedValueAndNotTheRowsOrder() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        var rooms: [Room] = []
        for owner in ["a", "b", "c"] { rooms.append(try await fixture.room(owner: owner)) }
        let first = try #require(try await TenantMove.digests(of: tenant, ["rooms"], on: fixture.database)["rooms"])
        #expect(first.rows == 3)

        // The same rows laid out in the opposite order (as a copy may lay
        // them out): the same digest.
        let copy = "digest_copy_\(tenant)"
        try await fixture.database.query("CREATE TABLE \(unescaped: copy) AS SELECT * FROM rooms WHERE tenant_id = \(tenant) ORDER BY room_id DESC")
        let copied = try await TenantMove.digests(of: tenant, [copy], on: fixture.database)[copy]
        try await fixture.database.query("DROP TABLE \(unescaped: copy)")
        #expect(copied == first)

        // One value changed: another digest, the same count; changed back: the first.
        try await fixture.database.query("UPDATE rooms SET name = 'renamed' WHERE tenant_id = \(tenant) AND room_id = \(rooms[1].id)")
        let changed = try #require(try await TenantMove.digests(of: tenant, ["rooms"], on: fixture.database)["rooms"])
        #expect(changed.rows == 3 && changed.checksum != first.checksum)
        try await fixture.database.query("UPDATE rooms SET name = \(rooms[1].name) WHERE tenant_id = \(tenant) AND room_id = \(rooms[1].id)")
        #expect(try await TenantMove.digests(of: tenant, ["rooms"], on: fixture.database)["rooms"] == first)

        // Another tenant's rows are not counted.
        let other = try await EngineFixture()
        _ = try await other.room(owner: "z")
        #expect(try await TenantMove.digests(of: tenant, ["rooms"], on: fixture.database)["rooms"] == first)
    }
}

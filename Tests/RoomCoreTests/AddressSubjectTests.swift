import Logging
import RoomCore
import RoomTestSupport
import Testing

/// #41: per-address limits count an IPv6 client by its /64.
@Suite struct AddressSubjectTests {
    @Test func anIPv6ClientIsCountedByItsSlash64() {
        #expect(AddressSubject.of("2001:db8:1:2:aaaa::1") == AddressSubject.of("2001:db8:1:2:ffff:1:2:3"))
        #expect(AddressSubject.of("2001:db8:1:2::1") == "2001:db8:1:2::/64")
        #expect(AddressSubject.of("2001:db8:1:3::1") != AddressSubject.of("2001:db8:1:2::1"))
        #expect(AddressSubject.of("127.0.0.2") == "127.0.0.2")
        #expect(AddressSubject.of("::ffff:10.1.2.3") == "10.1.2.3", "an IPv4-mapped address is its IPv4 host")
        #expect(AddressSubject.of("unknown") == "unknown")
    }
}

/// #41: each instance enforces its share of a budget: the instances alive
/// are counted in PostgreSQL, and one that stops leaves the count at once.
@Suite struct InstanceRosterTests {
    @Test func twoInstancesCountEachOtherAndAStoppedOneLeaves() async throws {
        let database = try await TestDatabase.shared()
        let logger = Logger(label: "roster")
        let (one, two) = (InstanceRoster(database: database, logger: logger), InstanceRoster(database: database, logger: logger))
        await one.refresh()
        await two.refresh()
        await one.refresh()
        #expect(one.instances >= 2 && two.instances >= 2, "\(one.instances), \(two.instances)")
        let before = one.instances
        try await database.query("DELETE FROM instances WHERE instance_id = \(two.id)")
        await one.refresh()
        #expect(one.instances == before - 1)
    }
}

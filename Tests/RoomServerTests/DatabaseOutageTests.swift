import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #17: while PostgreSQL is down (restarting, failing over), requests fail
/// in seconds with a clean "try again" in their API's format, never hang
/// and never answer as an internal error.
@Suite struct DatabaseOutageTests {
    @Test func requestsFailFastAndCleanlyWhileTheDatabaseIsAway() async throws {
        let fixture = try await ServerFixture()
        // Nothing listens on port 9: every connection attempt is refused.
        let client = PostgresClient(configuration: .init(host: "127.0.0.1", port: 9, username: "nobody", password: nil, database: "none", tls: .disable))
        let running = Task { await client.run() }
        defer { running.cancel() }
        let away = Database(client: client, logger: Logger(label: "away"), leaseSeconds: 1)
        let tenant = fixture.id(0)
        try await fixture.live(database: away) { http in
            let started = ContinuousClock.now
            let admin = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey)
            #expect(admin.status == .serviceUnavailable)
            #expect(admin.json["code"]?.string == "database_unavailable")
            #expect(admin.headers[.retryAfter] == "2")
            let created = try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=alice&name=x")
            #expect(created["code"] == .number(503), "\(created)")
            #expect(ContinuousClock.now - started < .seconds(5), "each failed within its one-second lease bound")
        }
    }
}

import Foundation
import Synchronization
@testable import RoomCore
import RoomTestSupport
import Testing

/// A login and a tenant ban of the same account, at once: whichever order
/// PostgreSQL gives them, the account ends with no session in force. Both
/// meet at the account's lock, and each reads what it decides on after the
/// lock is granted. Before, each read as of its statement's start: a login
/// that committed while the ban waited kept its session, and a login that
/// waited for a ban did not see it. Each test makes one interleaving happen
/// with a transaction standing in for the other side, holding the lock.
@Suite struct LoginRacingTenantBanTests {
    /// A login that holds the lock (shared) and has written its session
    /// when the ban comes: the ban waits for it, then revokes that session.
    @Test func aSessionCommittedWhileTheBanWaitedIsRevoked() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let troll = try await accounts.createGuest(tenant, nickname: { _ in "troll" }, avatar: "")
        let now = fixture.clock.now()
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let login = Task {
            try await fixture.database.transaction { connection in
                try await connection.run("SELECT pg_advisory_xact_lock_shared(\(AccountLock.key(tenant, troll.accid)))", logger: fixture.database.logger)
                try await connection.run("""
                    INSERT INTO sessions (tenant_id, token_hash, accid, plugin_id, created_at, expires_at)
                    VALUES (\(tenant), 'racing-login', \(troll.accid), \(TestRoomsPlugin.pluginID), \(now), \(now.addingTimeInterval(600)))
                    """, logger: fixture.database.logger)
                for await _ in release { break }
            }
        }
        try await until("the login holds the lock") { try await fixture.count(Self.idleHolding) == 1 }
        let ban = Task { try await fixture.engine.banFromTenant(troll.accid, reason: "spam", by: .admin, in: fixture.tenant) }
        try await until("the ban waits for the lock") { try await fixture.count(Self.waitingForALock) == 1 }
        releasing.yield()
        releasing.finish()
        try await login.value
        _ = try await ban.value
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM sessions WHERE tenant_id = '\(tenant)' AND accid = '\(troll.accid)' AND revoked_at IS NULL
            """) == 0, "the session the login committed while the ban waited is revoked")
    }

    /// A ban that holds the lock and has written itself when the login
    /// comes: the login waits for it, then sees it and opens no session.
    @Test func aLoginThatWaitedForABanSeesIt() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let accounts = AccountStore(database: fixture.database, clock: fixture.clock)
        let troll = try await accounts.createGuest(tenant, nickname: { _ in "troll" }, avatar: "")
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let ban = Self.banInFlight(of: troll.accid, in: fixture, until: release)
        try await until("the ban holds the lock") { try await fixture.count(Self.idleHolding) == 1 }
        let answered = Answered()
        let login = Task {
            defer { answered.set() }
            return try await accounts.openSession(tenant, accid: troll.accid, pluginID: TestRoomsPlugin.pluginID, ttlSeconds: 600)
        }
        // Before, the login did not wait: it was answered at once.
        try await until("the login waits for the lock, or was answered") {
            try await fixture.count(Self.waitingForALock) == 1 || answered.isSet
        }
        releasing.yield()
        releasing.finish()
        try await ban.value
        await #expect(throws: RoomError.banned, "the login that waited for the ban") { _ = try await login.value }
        #expect(try await fixture.count("""
            SELECT count(*)::int FROM sessions WHERE tenant_id = '\(tenant)' AND accid = '\(troll.accid)' AND revoked_at IS NULL
            """) == 0)
    }

    /// The local IM's socket login (its registration) meets the ban at the
    /// same lock: one that waited for a ban is refused, not admitted to stay
    /// after the ban's revocation has closed the account's sockets.
    @Test func anIMLoginThatWaitedForABanSeesIt() async throws {
        let fixture = try await EngineFixture()
        let tenant = fixture.tenant.id
        let local = fixture.local()
        let (release, releasing) = AsyncStream.makeStream(of: Void.self)
        let ban = Self.banInFlight(of: "troll", in: fixture, until: release)
        try await until("the ban holds the lock") { try await fixture.count(Self.idleHolding) == 1 }
        let answered = Answered()
        let login = Task {
            defer { answered.set() }
            return try await local.connect(UUID(), accid: "troll", instance: "test")
        }
        try await until("the IM login waits for the lock, or was answered") {
            try await fixture.count(Self.waitingForALock) == 1 || answered.isSet
        }
        releasing.yield()
        releasing.finish()
        try await ban.value
        #expect(try await login.value == .banned)
        #expect(try await fixture.count("SELECT count(*)::int FROM im_connections WHERE tenant_id = '\(tenant)' AND accid = 'troll'") == 0)
    }

    /// A tenant ban in flight, as its statement is once it holds the lock:
    /// the account's lock taken and the ban written, not yet committed
    /// until `release` yields.
    static func banInFlight(of account: AccountID, in fixture: EngineFixture, until release: AsyncStream<Void>) -> Task<Void, any Error> {
        let tenant = fixture.tenant.id
        return Task {
            try await fixture.database.transaction { connection in
                try await connection.run("SELECT pg_advisory_xact_lock(\(AccountLock.key(tenant, account)))", logger: fixture.database.logger)
                try await connection.run("""
                    INSERT INTO bans (tenant_id, accid, room_id, reason, expires_at, created_at, created_by, kind)
                    VALUES (\(tenant), \(account), NULL, 'spam', NULL, \(fixture.clock.now()), 'admin', 'ban')
                    """, logger: fixture.database.logger)
                for await _ in release { break }
            }
        }
    }

    static let idleHolding = """
        SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND state = 'idle in transaction'
          AND query LIKE 'INSERT INTO %'
        """
    static let waitingForALock = """
        SELECT count(*)::int FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'
        """

    private func until(_ what: Comment, _ condition: () async throws -> Bool) async throws {
        for _ in 0..<500 where try await !condition() { try await Task.sleep(for: .milliseconds(10)) }
        #expect(try await condition(), what)
    }
}

/// Set once the login is answered, whatever the answer.
private final class Answered: Sendable {
    private let value = Mutex(false)
    func set() { value.withLock { $0 = true } }
    var isSet: Bool { value.withLock { $0 } }
}

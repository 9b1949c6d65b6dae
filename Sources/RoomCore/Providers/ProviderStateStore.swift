import Foundation
import PostgresNIO

/// The state verified provider callbacks report, per tenant.
public struct ProviderStateStore: Sendable {
    public let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// A verified callback that was applied before: refused, on every instance.
    public struct Replayed: Error, Sendable {}

    /// How long a callback's receipt is kept (a replay after that is refused
    /// by the vendor's own time check, where it has one).
    public static let receiptRetention: TimeInterval = 7 * 86_400

    /// Records a callback's events and runs the hooks of the tenant's plugins
    /// on them, on the commit's transaction (`RoomEngine.applyProviderEvents`:
    /// a hook may write its rooms, a headset's deadline); true when outbox
    /// work was queued. `receipt` (a digest of what the vendor signed) is
    /// remembered in the same transaction: the same callback again throws
    /// `Replayed` and changes nothing.
    func apply(_ events: [ProviderEvent], tenant: Tenant, provider: String, receipt: String, now: Date, writes: RoomWrites) async throws -> Bool {
        let tenantID = tenant.id
        let connection = writes.connection
        let fresh = try await connection.run("""
            INSERT INTO provider_callback_receipts (tenant_id, provider, digest, received_at)
            VALUES (\(tenantID), \(provider), \(receipt), \(now)) ON CONFLICT DO NOTHING RETURNING 1
            """, logger: database.logger).collect()
        guard !fresh.isEmpty else { throw Replayed() }
        // Old receipts go in small batches, as callbacks arrive.
        try await connection.run("""
            -- cross-tenant: retention purges every tenant, in batches
            DELETE FROM provider_callback_receipts WHERE ctid IN (
                SELECT ctid FROM provider_callback_receipts
                WHERE received_at < \(now.addingTimeInterval(-Self.receiptRetention)) LIMIT 100)
            """, logger: database.logger)
        var messages: [OutboxMessage] = []
        for event in events {
            try await record(event, tenantID: tenantID, provider: provider, now: now, on: connection)
            for enabled in tenant.plugins.values.sorted(by: { $0.plugin.id < $1.plugin.id }) {
                let parts = HookParts(writes: writes, tenantID: tenantID, now: now, actor: .system, logger: database.logger)
                messages += try await enabled.plugin.providerEvent(event, parts)
            }
        }
        try await OutboxStore.enqueue(messages, tenantID: tenantID, webhooks: tenant.webhooks, now: now, on: connection, logger: database.logger)
        return !messages.isEmpty
    }

    private func record(_ event: ProviderEvent, tenantID: TenantID, provider: String, now: Date, on connection: PostgresConnection) async throws {
        switch event {
        case .chatroomMember(let chatroom, let accid, let present):
            try await connection.run("""
                INSERT INTO provider_chatroom_members (tenant_id, provider, chatroom_id, accid, present, updated_at)
                VALUES (\(tenantID), \(provider), \(chatroom), \(accid), \(present), \(now))
                ON CONFLICT (tenant_id, provider, chatroom_id, accid) DO UPDATE SET present = EXCLUDED.present, updated_at = EXCLUDED.updated_at
                """, logger: database.logger)
        case .chatroomClosed(let chatroom):
            try await connection.run("""
                UPDATE provider_chatroom_members SET present = false, updated_at = \(now)
                WHERE tenant_id = \(tenantID) AND provider = \(provider) AND chatroom_id = \(chatroom)
                """, logger: database.logger)
        case .stream(let name, let live):
            try await connection.run("""
                INSERT INTO live_streams (tenant_id, stream, live, updated_at) VALUES (\(tenantID), \(name), \(live), \(now))
                ON CONFLICT (tenant_id, stream) DO UPDATE SET live = EXCLUDED.live, updated_at = EXCLUDED.updated_at
                """, logger: database.logger)
        }
    }

    /// Accounts a provider last reported present in a chatroom.
    public func chatroomMembers(_ tenantID: TenantID, provider: String, chatroom: String) async throws -> [AccountID] {
        let rows = try await database.query("""
            SELECT accid FROM provider_chatroom_members
            WHERE tenant_id = \(tenantID) AND provider = \(provider) AND chatroom_id = \(chatroom) AND present ORDER BY accid
            """)
        return try rows.decode(String.self)
    }

    /// A stream's last reported state and when, or nil if never reported.
    public func stream(_ tenantID: TenantID, _ name: String) async throws -> (live: Bool, at: Date)? {
        let rows = try await database.query("SELECT live, updated_at FROM live_streams WHERE tenant_id = \(tenantID) AND stream = \(name)")
        return try rows.decode((Bool, Date).self).first.map { ($0, $1) }
    }
}

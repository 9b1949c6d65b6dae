import Foundation

/// An outbox row as stored.
public struct OutboxEntry: Sendable, Equatable {
    public enum Status: String, Sendable, Codable, CaseIterable {
        case pending, delivered, dead
    }

    public var tenantID: TenantID
    public var id: Int64
    public var roomID: RoomID?
    public var kind: String
    public var payload: String
    /// The effect, read once when the entry is loaded; nil when unreadable.
    public var effect: OutboxEffect?
    public var status: Status
    public var attempts: Int
    public var nextAttemptAt: Date
    public var lastError: String?
    public var createdAt: Date
    public var deliveredAt: Date?
    /// The trace of the request that queued it (#30), nil with tracing off.
    public var traceParent: String? = nil
}

extension OutboxEntry {
    /// The webhook endpoint a webhook entry goes to.
    public var webhookEndpoint: String? {
        if case .webhook(let delivery) = effect { return delivery.endpoint }
        return nil
    }

    /// One key per entry, the same on every attempt (the entry's identity,
    /// hashed so it names neither tenant nor sequence): what a vendor that
    /// deduplicates sees.
    public var idempotencyKey: String {
        String(Secrets.sha256Hex("\(tenantID)/outbox/\(id)").prefix(32))
    }
}

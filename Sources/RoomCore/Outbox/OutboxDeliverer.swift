import Foundation

/// Performs one outbox entry's side effect.
public protocol OutboxDeliverer: Sendable {
    func deliver(_ entry: OutboxEntry) async throws
}

/// A failure that retrying cannot fix (unknown kind, a payload we cannot
/// read, a provider that refused): the entry goes straight to dead.
public struct PermanentDeliveryError: Error, Sendable, CustomStringConvertible {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// Delivers the entry kinds RoomCore defines through the tenant's providers.
public struct ProviderOutboxDeliverer: OutboxDeliverer {
    public let tenants: @Sendable (TenantID) -> Tenant?

    public init(tenants: @escaping @Sendable (TenantID) -> Tenant?) {
        self.tenants = tenants
    }

    public func deliver(_ entry: OutboxEntry) async throws {
        guard entry.kind == IMEffect.outboxKind else {
            throw PermanentDeliveryError("no deliverer for outbox kind \(entry.kind)")
        }
        guard let effect = try? JSONDecoder().decode(IMEffect.self, from: Data(entry.payload.utf8)) else {
            throw PermanentDeliveryError("unreadable \(entry.kind) payload")
        }
        // A tenant missing from the configuration may come back with a reload: retry.
        guard let tenant = tenants(entry.tenantID) else {
            throw IMError.unavailable(operation: "outbox", detail: "tenant \(entry.tenantID) is not configured")
        }
        do {
            try await effect.perform(on: tenant.im)
        } catch let error as IMError where !error.isTransient {
            throw PermanentDeliveryError(error.description)
        }
    }
}

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
        // A tenant missing from the configuration may come back with a reload: retry.
        func tenant() throws -> Tenant {
            guard let tenant = tenants(entry.tenantID) else {
                throw IMError.unavailable(operation: "outbox", detail: "tenant \(entry.tenantID) is not configured")
            }
            return tenant
        }
        guard let effect = entry.effect else { throw PermanentDeliveryError("unreadable \(entry.kind) entry") }
        switch effect {
        case .im(let effect):
            do {
                let im = try tenant().im
                try await OutboxDelivery.$idempotencyKey.withValue(entry.idempotencyKey) {
                    try await effect.perform(on: im, idempotencyKey: entry.idempotencyKey)
                }
            } catch let error as IMError where !error.isTransient {
                throw PermanentDeliveryError(error.description)
            }
        case .live(let effect):
            do {
                try await effect.perform(on: try tenant().live)
            } catch let error as MediaError {
                if case .rejected = error { throw PermanentDeliveryError(error.description) }
                throw error
            }
        }
    }
}

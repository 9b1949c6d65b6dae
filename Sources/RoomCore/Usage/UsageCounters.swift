import Foundation
import Synchronization

/// What an instance counted per tenant and hour since its last flush: API
/// requests, local IM texts, webhook deliveries (#30, item 3). The usage
/// rollup adds them to `usage_hourly` in its fold's transaction and puts
/// them back if that fails; a graceful stop flushes them, so only a killed
/// process loses what it counted since its last fold (30 s by default).
///
/// One per process (`shared`): the local IM adapter and the HTTP middleware
/// that count are built far from the rollup, and instances of one process
/// (tests) write to the same database, so one pool of counts is still exact.
public final class UsageCounters: Sendable {
    public static let shared = UsageCounters()

    public enum Kind: Sendable, Hashable {
        case apiRequest, imMessage, webhookDelivery
    }

    public struct Counts: Sendable, Equatable {
        public var apiRequests: Int64 = 0
        public var imMessages: Int64 = 0
        public var webhookDeliveries: Int64 = 0

        public init() {}

        var isEmpty: Bool { apiRequests == 0 && imMessages == 0 && webhookDeliveries == 0 }

        mutating func add(_ kind: Kind, _ amount: Int64) {
            switch kind {
            case .apiRequest: apiRequests += amount
            case .imMessage: imMessages += amount
            case .webhookDelivery: webhookDeliveries += amount
            }
        }

        mutating func add(_ other: Counts) {
            apiRequests += other.apiRequests
            imMessages += other.imMessages
            webhookDeliveries += other.webhookDeliveries
        }
    }

    struct Key: Hashable {
        let tenantID: TenantID
        let hour: Date
    }

    private let counts = Mutex<[Key: Counts]>([:])

    public init() {}

    public func record(_ kind: Kind, tenant: TenantID, at date: Date, amount: Int64 = 1) {
        let key = Key(tenantID: tenant, hour: UsageIntegrator.hourStart(date))
        counts.withLock { $0[key, default: Counts()].add(kind, amount) }
    }

    /// Takes `tenant`'s counts out, by hour.
    func take(_ tenant: TenantID) -> [Date: Counts] {
        counts.withLock { all in
            var taken: [Date: Counts] = [:]
            for key in all.keys where key.tenantID == tenant {
                taken[key.hour] = all.removeValue(forKey: key)
            }
            return taken
        }
    }

    /// Puts back counts a failed flush took.
    func putBack(_ tenant: TenantID, _ taken: [Date: Counts]) {
        counts.withLock { all in
            for (hour, value) in taken { all[Key(tenantID: tenant, hour: hour), default: Counts()].add(value) }
        }
    }

    /// The tenants with counts waiting.
    func tenants() -> Set<TenantID> {
        counts.withLock { Set($0.keys.map(\.tenantID)) }
    }
}

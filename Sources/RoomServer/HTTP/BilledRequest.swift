import Foundation
import RoomCore

/// A tenant's billed API requests (#30's usage; #41): counted only once a
/// request has passed routing (a configured tenant, a route it enables) and
/// authentication (an admin key that reaches the tenant, a client route
/// not refused for want of a session). Counting every request with a
/// tenant's id in its path let anyone inflate any tenant's invoice with
/// 401s, 403s and 404s.
enum BilledRequest {
    static func count(_ tenant: TenantID, at now: Date, unless refused: Bool = false) {
        guard !refused else { return }
        UsageCounters.shared.record(.apiRequest, tenant: tenant, at: now)
    }
}

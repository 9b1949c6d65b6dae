import Foundation
import Hummingbird
import RoomCore

/// `GET /admin/v1/tenants/{tenant}/limits` (#41): the tenant's request
/// budgets (its file's `[limits]` or the defaults), this instance's share of
/// them, its plugins' open-room quotas, its accounts quota, and what it uses now.
extension AdminAPI {
    func registerLimitsRoutes(_ tenantGroup: RouterGroup<RoomRequestContext>) {
        tenantGroup.get("limits", use: showLimits)
    }

    @Sendable func showLimits(_ request: Request, context: RoomRequestContext) async throws -> LimitsDTO {
        let tenant = try context.authorizedTenant(tenants)
        let rows = try await services.database.query("""
            SELECT (SELECT count(*)::int FROM rooms WHERE tenant_id = \(tenant.id) AND state = 'open'),
                   (SELECT count(*)::int FROM accounts WHERE tenant_id = \(tenant.id)),
                   (SELECT count(*)::int FROM im_connections WHERE tenant_id = \(tenant.id))
            """).decode((Int, Int, Int).self)
        let (openRooms, accounts, sockets) = rows.first ?? (0, 0, 0)
        return LimitsDTO(tenant: tenant, instances: budgets.roster?.instances ?? 1,
                         usage: .init(openRooms: openRooms, accounts: accounts, sockets: sockets))
    }
}

struct LimitsDTO: ResponseEncodable {
    struct Budget: Encodable {
        let perSecond: Int
        let burst: Int
    }

    struct Budgets: Encodable {
        let client: Budget
        let admin: Budget
        let account: Budget
    }

    struct Quota: Encodable {
        let plugin: String
        let maxOpenRooms: Int?
        let maxOpenRoomsPerOwner: Int?
    }

    struct Usage: Encodable {
        let openRooms: Int
        let accounts: Int
        let sockets: Int
    }

    let tenant: String
    let instances: Int
    let budgets: Budgets
    /// Each instance enforces its share: the budget over the instances alive.
    let perInstance: Budgets
    /// One room's joins a second on each instance, not divided: the pace
    /// protects an instance's cores, which each instance has its own of.
    let roomJoins: Budget
    let quotas: [Quota]
    /// Accounts the tenant may hold (`[limits] maxAccounts`); nil: no quota.
    let maxAccounts: Int?
    let usage: Usage

    init(tenant: Tenant, instances: Int, usage: Usage) {
        let set = tenant.budgets
        func budget(_ value: RequestBudgets.Budget, over count: Int) -> Budget {
            Budget(perSecond: max(1, value.perSecond / count), burst: max(1, value.burst / count))
        }
        self.tenant = tenant.id
        self.instances = instances
        budgets = Budgets(client: budget(set.client, over: 1), admin: budget(set.admin, over: 1), account: budget(set.account, over: 1))
        perInstance = Budgets(client: budget(set.client, over: instances), admin: budget(set.admin, over: instances),
                              account: budget(set.account, over: instances))
        roomJoins = budget(set.roomJoins, over: 1)
        quotas = tenant.plugins.keys.sorted().compactMap { id in
            tenant.plugins[id].map { Quota(plugin: id, maxOpenRooms: $0.policy.maxRooms, maxOpenRoomsPerOwner: $0.policy.maxRoomsPerOwner) }
        }
        maxAccounts = tenant.maxAccounts
        self.usage = usage
    }
}

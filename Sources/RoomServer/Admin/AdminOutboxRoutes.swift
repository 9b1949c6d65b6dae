import Foundation
import Hummingbird
import RoomCore

extension AdminAPI {
    struct StatsDTO: ResponseEncodable {
        let tenant: String
        let rooms: [String: [String: Int]]
        let outbox: [String: Int]
    }

    struct ActivityDTO: ResponseEncodable {
        struct Bucket: Encodable {
            let minute: Date
            let created: Int
            let joined: Int
            let left: Int
            let closed: Int
        }

        let tenant: String
        let buckets: [Bucket]
    }

    func registerOutboxRoutes(_ group: RouterGroup<RoomRequestContext>) {
        group.get("outbox", use: listOutbox)
        group.post("outbox/:entry/retry", use: retryOutboxEntry)
        group.get("activity", use: showActivity)
        group.get("stats", use: showStats)
    }

    @Sendable func listOutbox(_ request: Request, context: RoomRequestContext) async throws -> Page<OutboxDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let query = request.uri.queryParameters
        var status: OutboxEntry.Status?
        if let text = query.get("status") {
            guard let parsed = OutboxEntry.Status(rawValue: text) else {
                throw Problem.invalid("status", "must be one of \(OutboxEntry.Status.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            status = parsed
        }
        let kind = query.get("kind")
        if let kind, !["im", "live", "webhook"].contains(kind) { throw Problem.invalid("kind", "must be one of im, live, webhook") }
        let limit = try Self.limit(query.get("limit"))
        var before: Int64?
        if let cursor = query.get("cursor") {
            guard let value = DecimalText.int64(cursor) else { throw Problem.invalid("cursor", "must be a cursor from nextCursor") }
            before = value
        }
        // The operator's dead-letter copies are not the tenant's to see or retry (#41).
        let entries = try await outbox.list(tenant.id, status: status, kind: kind, before: before, limit: limit + 1,
                                            operatorsToo: context.principal == .operator)
        let items = Array(entries.prefix(limit))
        return Page(items: items.map(OutboxDTO.init), nextCursor: entries.count > limit ? items.last.map { String($0.id) } : nil)
    }

    @Sendable func retryOutboxEntry(_ request: Request, context: RoomRequestContext) async throws -> OutboxDTO {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.requireInt64("entry")
        let operatorsToo = context.principal == .operator
        if let entry = try await outbox.retry(tenant.id, id, now: services.clock.now(), audited: AuditStamp(by: .admin, in: tenant),
                                              operatorsToo: operatorsToo) { return OutboxDTO(entry) }
        guard let existing = try await outbox.entry(tenant.id, id), operatorsToo || existing.webhookEndpoint != WebhookEndpoint.operatorName else {
            throw Problem.notFound("no outbox entry \(id) in tenant \(tenant.id)")
        }
        guard existing.status == .delivered else {
            throw Problem(.conflict, code: "delivery_in_progress", detail: "outbox entry \(existing.id) is being delivered now; retry it if that attempt fails")
        }
        throw Problem(.conflict, code: "already_delivered", detail: "outbox entry \(existing.id) was delivered; there is nothing to retry")
    }

    @Sendable func showActivity(_ request: Request, context: RoomRequestContext) async throws -> ActivityDTO {
        let tenant = try context.authorizedTenant(tenants)
        var minutes = 60
        if let text = request.uri.queryParameters.get("minutes") {
            guard let value = DecimalText.int(text), (1...1440).contains(value) else { throw Problem.invalid("minutes", "must be between 1 and 1440") }
            minutes = value
        }
        let buckets = try await rooms.activity(tenant.id, minutes: minutes, now: services.clock.now())
        return ActivityDTO(tenant: tenant.id, buckets: buckets.map { bucket in
            ActivityDTO.Bucket(minute: bucket.minute, created: bucket.counts["created"] ?? 0, joined: bucket.counts["joined"] ?? 0,
                               left: bucket.counts["left"] ?? 0, closed: bucket.counts["closed"] ?? 0)
        })
    }

    @Sendable func showStats(_ request: Request, context: RoomRequestContext) async throws -> StatsDTO {
        let tenant = try context.authorizedTenant(tenants)
        var rooms: [String: [String: Int]] = [:]
        for count in try await self.rooms.roomCounts(tenant.id) {
            rooms[count.pluginID, default: [:]][count.state] = count.count
        }
        var outboxCounts: [String: Int] = [:]
        for count in try await outbox.counts(tenant.id) { outboxCounts[count.status] = count.count }
        return StatsDTO(tenant: tenant.id, rooms: rooms, outbox: outboxCounts)
    }
}

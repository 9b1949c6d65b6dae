import Foundation
import Hummingbird
import RoomCore

/// A tenant's webhook endpoints as configured, a test event for one, the
/// attempts of any outbox entry, and replaying dead letters since a time.
extension AdminAPI {
    /// Test events a tenant may queue: 10 a minute.
    static let testEvents = RateLimit(10, per: 60)

    struct WebhookEndpointDTO: Encodable {
        let name: String
        let url: String
        let events: [String]
        /// How many secrets sign each delivery (two while one is rotated); never the secrets.
        let signingSecrets: Int
    }

    struct AttemptDTO: Encodable {
        let attempt: Int
        let at: Date
        let outcome: String
        let statusCode: Int?
        let latencyMs: Int
        let error: String?
    }

    struct ReplayBody: AdminBody {
        static let schema = "Replay"
        let since: String
        let endpoint: String?
    }

    struct ReplayedDTO: ResponseEncodable {
        let replayed: Int
    }

    func registerWebhookRoutes(_ group: RouterGroup<RoomRequestContext>) {
        group.get("webhooks", use: listWebhooks)
        group.post("webhooks/:endpoint/test", use: testWebhook)
        group.get("outbox/:entry/attempts", use: listAttempts)
        group.post("outbox/replay", use: replayOutbox)
    }

    @Sendable func listWebhooks(_ request: Request, context: RoomRequestContext) async throws -> Page<WebhookEndpointDTO> {
        let tenant = try context.authorizedTenant(tenants)
        return Page(items: tenant.webhooks.map {
            WebhookEndpointDTO(name: $0.name, url: $0.url, events: $0.events.sorted(), signingSecrets: $0.secrets.count)
        }, nextCursor: nil)
    }

    @Sendable func testWebhook(_ request: Request, context: RoomRequestContext) async throws -> EditedResponse<OutboxDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let name = try context.parameters.text("endpoint")
        guard let endpoint = tenant.webhook(name) else { throw Problem.notFound("no webhook endpoint \(name) in tenant \(tenant.id)") }
        // A burst of test events must not fill the webhook stream (#27).
        let now = services.clock.now()
        guard try await RateCounter(database: services.database).admit(tenant.id, action: "webhook-test", subject: "tenant",
                                                                       limit: Self.testEvents, now: now) else {
            throw Problem(.tooManyRequests, code: "rate_limited", detail: "at most \(Self.testEvents.count) test events a minute per tenant; try again later")
        }
        guard let entry = try await outbox.enqueueTest(tenant, endpoint: endpoint, now: now, audited: AuditStamp(by: .admin, in: tenant)) else {
            throw Problem.notFound("no webhook endpoint \(name) in tenant \(tenant.id)")
        }
        return EditedResponse(status: .accepted, response: OutboxDTO(entry))
    }

    @Sendable func listAttempts(_ request: Request, context: RoomRequestContext) async throws -> Page<AttemptDTO> {
        let tenant = try context.authorizedTenant(tenants)
        let id = try context.parameters.requireInt64("entry")
        let limit = try Self.limit(request.uri.queryParameters.get("limit"))
        guard try await outbox.entry(tenant.id, id) != nil else { throw Problem.notFound("no outbox entry \(id) in tenant \(tenant.id)") }
        let rows = try await outbox.attempts(tenant.id, id, limit: limit)
        return Page(items: rows.map {
            AttemptDTO(attempt: $0.attempt, at: $0.at, outcome: $0.outcome, statusCode: $0.statusCode, latencyMs: $0.latencyMS, error: $0.error)
        }, nextCursor: nil)
    }

    @Sendable func replayOutbox(_ request: Request, context: RoomRequestContext) async throws -> ReplayedDTO {
        let tenant = try context.authorizedTenant(tenants)
        let body = try await request.decodeJSON(ReplayBody.self, context: context)
        guard let since = Self.parseTimestamp(body.since) else {
            throw Problem.invalid("since", "must be an RFC 3339 date-time such as 2026-11-24T10:00:00Z")
        }
        if let endpoint = body.endpoint, tenant.webhook(endpoint) == nil {
            throw Problem.notFound("no webhook endpoint \(endpoint) in tenant \(tenant.id)")
        }
        let replayed = try await outbox.replayDead(tenant.id, since: since, endpoint: body.endpoint, now: services.clock.now(),
                                                  audited: AuditStamp(by: .admin, in: tenant))
        return ReplayedDTO(replayed: replayed)
    }

    static func parseTimestamp(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}

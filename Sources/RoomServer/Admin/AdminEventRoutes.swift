import Foundation
import Hummingbird
import RoomCore

/// `GET /admin/v1/tenants/{tenant}/events` (#30, item 4): the tenant's room
/// events after a cursor, as its webhooks carry them, for a back end that
/// was away to catch up and reconcile.
extension AdminAPI {
    func registerEventRoutes(_ tenantGroup: RouterGroup<RoomRequestContext>) {
        tenantGroup.get("events", use: eventFeed)
    }

    @Sendable func eventFeed(_ request: Request, context: RoomRequestContext) async throws -> EventPage {
        let tenant = try context.authorizedTenant(tenants)
        let query = request.uri.queryParameters
        let after = try Self.cursor(query.get("after"), field: "after") ?? 0
        let limit = try Self.limit(query.get("limit"))
        let events = try await EventFeed(database: services.database).page(tenant.id, after: after, limit: limit)
        let items: [JSONValue] = events.map { event in
            var object = JSONValue.parse(event.body(tenantID: tenant.id))?.object ?? [:]
            object["cursor"] = .string(String(event.cursor))
            object["eventId"] = .string(String(event.eventID))
            object["id"] = .string(event.webhookID(tenantID: tenant.id))
            return .object(object)
        }
        // Always a cursor: the last event's, or the one given when nothing
        // is new (a poller keeps it and asks again).
        return EventPage(items: items, nextCursor: String(events.last?.cursor ?? after))
    }
}

struct EventPage: ResponseEncodable {
    let items: [JSONValue]
    let nextCursor: String
}

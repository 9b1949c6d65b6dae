import Foundation

/// The admin contract's event feed (#30), next to its route
/// (`AdminEventRoutes`), merged by `AdminContract.document`.
extension AdminContract {
    static let eventsJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/events": {
      "get": {
        "operationId": "listTenantEvents",
        "summary": "The tenant's room events after a cursor: the feed a back end catches up from",
        "description": "Every room lifecycle and member event, and every plugin event, of the tenant, each exactly as its webhook carries it (`type`, `timestamp`, `data`, byte for byte, and the `webhook-id` as `id`), with its place in the feed (`cursor`). Oldest first. Follow it by passing each answer's `nextCursor` as the next `after` (start at 0): an event is given a place only once every transaction that could commit before it has ended, so a poller never misses one committed later with a smaller id, sees each once, and sees each room's events in their order, however many instances write. Rooms deleted by retention take their events with them.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/EventPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "after", "in": "query", "description": "The last cursor read (0 or absent: from the start)", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
          {"$ref": "#/components/parameters/limit"}
        ]
      }
    }
  },
  "components": {
    "schemas": {
      "FeedEvent": {
        "type": "object",
        "required": ["cursor", "eventId", "id", "type", "timestamp", "data"],
        "additionalProperties": false,
        "properties": {
          "cursor": {"type": "string", "description": "This event's place in the feed"},
          "eventId": {"type": "string", "description": "The event's id on its room's timeline"},
          "id": {"type": "string", "description": "The `webhook-id` its webhooks carry (derived from the body: a back end that takes both dedupes by it)"},
          "type": {"type": "string", "description": "As the webhook's: room.created, member.joined, … or a plugin's type"},
          "timestamp": {"type": "string", "format": "date-time"},
          "data": {"type": "object", "description": "As the webhook's: the event's fields, tenant and roomId (none for a tenant-wide ban and its lift)"}
        }
      },
      "EventPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/FeedEvent"}},
          "nextCursor": {"type": "string", "description": "Pass as `after` next time: the last event's cursor, or the one given when nothing is new"}
        }
      }
    }
  }
}
"""#
}

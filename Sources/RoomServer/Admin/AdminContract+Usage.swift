import Foundation

/// The admin contract's usage per tenant (#30), next to its route
/// (`AdminUsageRoutes`), merged by `AdminContract.document`.
extension AdminContract {
    static let usageJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/usage": {
      "get": {
        "operationId": "getTenantUsage",
        "summary": "The tenant's usage by hour or UTC day, as JSON or CSV",
        "description": "Room-minutes and member-minutes (open rooms and joined members integrated over time), the most members joined at once, rooms opened, joins, API requests, local IM texts and webhook deliveries, per period that has any. Kept by a rollup every 30 seconds (and when this is asked), never by scanning on request. `format=csv` is the billing export: a header row, then one row per period.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {
              "application/json": {"schema": {"$ref": "#/components/schemas/UsagePage"}},
              "text/csv": {"schema": {"type": "string"}}
            }
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "from", "in": "query", "description": "periods from this time (RFC 3339; default: a day, or for days 30 days, before `to`)", "schema": {"type": "string", "format": "date-time"}},
          {"name": "to", "in": "query", "description": "periods before this time (RFC 3339; default now). One answer reaches at most 31 days back from it by hour, 366 by day: an earlier `from` is moved up (the answer's `from` says where it began); a `from` after `to` answers no periods", "schema": {"type": "string", "format": "date-time"}},
          {"name": "granularity", "in": "query", "schema": {"type": "string", "enum": ["hour", "day"], "default": "hour"}},
          {"name": "format", "in": "query", "schema": {"type": "string", "enum": ["json", "csv"], "default": "json"}}
        ]
      }
    }
  },
  "components": {
    "schemas": {
      "UsagePeriod": {
        "type": "object",
        "additionalProperties": false,
        "required": ["start", "roomMinutes", "memberMinutes", "peakMembers", "roomsOpened", "joins", "apiRequests", "imMessages", "webhookDeliveries"],
        "properties": {
          "start": {"type": "string", "format": "date-time", "description": "The hour's or UTC day's start"},
          "roomMinutes": {"type": "number", "minimum": 0},
          "memberMinutes": {"type": "number", "minimum": 0},
          "peakMembers": {"type": "integer", "minimum": 0, "description": "The most members joined at once, over the tenant's rooms"},
          "roomsOpened": {"type": "integer", "minimum": 0},
          "joins": {"type": "integer", "minimum": 0},
          "apiRequests": {"type": "integer", "minimum": 0},
          "imMessages": {"type": "integer", "minimum": 0, "description": "Texts in local IM chatrooms"},
          "webhookDeliveries": {"type": "integer", "minimum": 0, "description": "Deliveries the tenant's endpoints accepted"}
        }
      },
      "UsagePage": {
        "type": "object",
        "additionalProperties": false,
        "required": ["tenant", "granularity", "from", "to", "items"],
        "properties": {
          "tenant": {"type": "string"},
          "granularity": {"type": "string", "enum": ["hour", "day"]},
          "from": {"type": "string", "format": "date-time"},
          "to": {"type": "string", "format": "date-time"},
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/UsagePeriod"}}
        }
      }
    }
  }
}
"""#
}

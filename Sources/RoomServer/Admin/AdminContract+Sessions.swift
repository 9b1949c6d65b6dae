import Foundation

/// The admin contract's room sessions (#30), next to their route
/// (`AdminSessionRoutes`), merged by `AdminContract.document`.
extension AdminContract {
    static let sessionsJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/sessions": {
      "get": {
        "operationId": "listRoomSessions",
        "summary": "Every room's session facts, newest first",
        "description": "When each room opened and closed (and why), how long it lasted (so far, while open), how many are in it now, how many joins it had in all and at most at once, and how many texts its local IM chatroom carried (null for a vendor's chatroom). Kept by the statements that change them, never counted on request.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RoomSessionPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "plugin", "in": "query", "description": "only this plugin's rooms", "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
          {"name": "room", "in": "query", "description": "only this room", "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}},
          {"name": "from", "in": "query", "description": "opened at or after (RFC 3339)", "schema": {"type": "string", "format": "date-time"}},
          {"name": "to", "in": "query", "description": "opened before (RFC 3339)", "schema": {"type": "string", "format": "date-time"}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      }
    }
  },
  "components": {
    "schemas": {
      "RoomSession": {
        "type": "object",
        "additionalProperties": false,
        "required": ["room", "plugin", "name", "owner", "state", "openedAt", "closedAt", "closeReason", "durationSeconds", "members", "totalJoins", "peakMembers", "messages"],
        "properties": {
          "room": {"type": "integer", "format": "int64"},
          "plugin": {"type": "string"},
          "name": {"type": "string"},
          "owner": {"type": "string"},
          "state": {"type": "string", "enum": ["open", "closed"]},
          "openedAt": {"type": "string", "format": "date-time"},
          "closedAt": {"type": ["string", "null"], "format": "date-time"},
          "closeReason": {"type": ["string", "null"], "enum": ["dissolved", "expired", "lapsed", null]},
          "durationSeconds": {"type": "integer", "minimum": 0, "description": "Open to close; to now while open"},
          "members": {"type": "integer", "minimum": 0, "description": "Joined now"},
          "totalJoins": {"type": "integer", "minimum": 0},
          "peakMembers": {"type": "integer", "minimum": 0, "description": "The most joined at once"},
          "messages": {"type": ["integer", "null"], "minimum": 0, "description": "Texts in its local IM chatroom; null for a vendor's chatroom or none"}
        }
      },
      "RoomSessionPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/RoomSession"}},
          "nextCursor": {"type": ["string", "null"], "description": "Pass as `cursor` for the next page; null on the last page."}
        }
      }
    }
  }
}
"""#
}

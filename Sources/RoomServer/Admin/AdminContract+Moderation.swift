import Foundation

/// The admin contract's kicks and bans (#29), next to their routes
/// (`AdminModerationRoutes`): paths, the `ban` parameter and their schemas,
/// merged into `AdminContract.json` by `AdminContract.document`.
extension AdminContract {
    static let moderationJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/rooms/{room}/members/{account}/kick": {
      "post": {
        "operationId": "kickMember",
        "summary": "Take an account out of a room, and keep it out for a while",
        "description": "Its membership ends, the plugin frees its seat or mic position and tells the room (SealMic: a `kick`), and the room's timeline and webhooks say `member.kicked`. With `durationSeconds` the account is also banned from the room until then (the answer's `ban`): no join, seat apply or local IM chatroom enter gets it back in, whatever token it holds.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Kicked"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"$ref": "#/components/parameters/room"},
          {"name": "account", "in": "path", "required": true, "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}}
        ],
        "requestBody": {
          "required": false,
          "description": "Optional: without a body the account is only taken out",
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Kick"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/bans": {
      "get": {
        "operationId": "listRoomBans",
        "summary": "The room's bans, newest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BanPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"$ref": "#/components/parameters/room"},
          {"name": "account", "in": "query", "description": "only this account's bans", "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}},
          {"name": "active", "in": "query", "description": "true: only bans in force now", "schema": {"type": "string", "enum": ["true", "false"]}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      },
      "post": {
        "operationId": "banFromRoom",
        "summary": "Take an account out of the room and keep it out",
        "description": "Until `durationSeconds` from now, or until lifted. The room's timeline and webhooks say `member.banned`.",
        "tags": ["admin"],
        "responses": {
          "201": {
            "description": "Created",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}},
            "headers": {"Location": {"schema": {"type": "string"}, "description": "The ban's URL"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewBan"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/bans/{ban}": {
      "delete": {
        "operationId": "liftRoomBan",
        "summary": "Lift a ban of the room that is in force",
        "description": "The account may come back at once; the ban stays listed, with `liftedAt`. Webhooks say `member.unbanned`.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}, {"$ref": "#/components/parameters/ban"}]
      }
    },
    "/admin/v1/tenants/{tenant}/bans": {
      "get": {
        "operationId": "listTenantBans",
        "summary": "The tenant-wide bans, newest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BanPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "account", "in": "query", "description": "only this account's bans", "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}},
          {"name": "active", "in": "query", "description": "true: only bans in force now", "schema": {"type": "string", "enum": ["true", "false"]}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      },
      "post": {
        "operationId": "banFromTenant",
        "summary": "Keep an account out of every room of the tenant",
        "description": "Its sessions and IM tokens end now (its sockets close); until `durationSeconds` from now, or until lifted, it gets no new session, no IM token from a plugin's login and no join. Webhooks say `member.banned` (without a room).",
        "tags": ["admin"],
        "responses": {
          "201": {
            "description": "Created",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}},
            "headers": {"Location": {"schema": {"type": "string"}, "description": "The ban's URL"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewBan"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/mutes": {
      "get": {
        "operationId": "listRoomMutes",
        "summary": "The room's mutes, newest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/BanPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"$ref": "#/components/parameters/room"},
          {"name": "account", "in": "query", "description": "only this account's mutes", "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}},
          {"name": "active", "in": "query", "description": "true: only mutes in force now", "schema": {"type": "string", "enum": ["true", "false"]}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      },
      "post": {
        "operationId": "muteInRoom",
        "summary": "Keep an account quiet in the room: a mute it cannot lift",
        "description": "Until `durationSeconds` from now, or until lifted, its chatroom texts are refused (the local IM answers an `error` frame with code `member_muted`; NetEase and RongCloud get their member mute) whatever its own switches say. It stays in the room. The timeline and webhooks say `member.muted`. The room must be open (409 otherwise).",
        "tags": ["admin"],
        "responses": {
          "201": {
            "description": "Created",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}},
            "headers": {"Location": {"schema": {"type": "string"}, "description": "The mute's URL"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewBan"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/mutes/{mute}": {
      "delete": {
        "operationId": "liftRoomMute",
        "summary": "Lift a mute of the room that is in force",
        "description": "The account may speak again at once; the mute stays listed, with `liftedAt`. Webhooks say `member.unmuted`.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}, {"$ref": "#/components/parameters/mute"}]
      }
    },
    "/admin/v1/tenants/{tenant}/bans/{ban}": {
      "delete": {
        "operationId": "liftTenantBan",
        "summary": "Lift a tenant-wide ban that is in force",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Ban"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/ban"}]
      }
    }
  },
  "components": {
    "parameters": {
      "ban": {
        "name": "ban",
        "in": "path",
        "required": true,
        "schema": {"type": "integer", "format": "int64", "minimum": 1}
      },
      "mute": {
        "name": "mute",
        "in": "path",
        "required": true,
        "schema": {"type": "integer", "format": "int64", "minimum": 1}
      }
    },
    "schemas": {
      "Kick": {
        "type": "object",
        "properties": {
          "durationSeconds": {"type": ["integer", "null"], "minimum": 1, "maximum": 31622400, "description": "Keep the account out of the room this long (366 days at most); absent or null: only take it out"},
          "reason": {"type": "string", "maxLength": 256, "pattern": "^[^\\u0000]*$", "description": "Shown in the ban, the timeline and the webhook"}
        }
      },
      "NewBan": {
        "type": "object",
        "required": ["account"],
        "properties": {
          "account": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"},
          "durationSeconds": {"type": ["integer", "null"], "minimum": 1, "maximum": 31622400, "description": "366 days at most; absent or null: until lifted"},
          "reason": {"type": "string", "maxLength": 256, "pattern": "^[^\\u0000]*$"}
        }
      },
      "Ban": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "account", "room", "reason", "expiresAt", "createdAt", "createdBy", "liftedAt", "liftedBy", "active"],
        "properties": {
          "id": {"type": "string", "pattern": "^[0-9]{1,18}$"},
          "account": {"type": "string"},
          "room": {"type": ["integer", "null"], "format": "int64", "description": "null: every room of the tenant"},
          "reason": {"type": "string"},
          "expiresAt": {"type": ["string", "null"], "format": "date-time", "description": "null: until lifted"},
          "createdAt": {"type": "string", "format": "date-time"},
          "createdBy": {"type": "string"},
          "liftedAt": {"type": ["string", "null"], "format": "date-time"},
          "liftedBy": {"type": ["string", "null"]},
          "active": {"type": "boolean", "description": "In force now: neither lifted nor expired"}
        }
      },
      "BanPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/Ban"}},
          "nextCursor": {"type": ["string", "null"], "description": "Pass as `cursor` for the next page; null on the last page."}
        }
      },
      "Kicked": {
        "type": "object",
        "additionalProperties": false,
        "required": ["account", "room", "ban"],
        "properties": {
          "account": {"type": "string"},
          "room": {"type": "integer", "format": "int64"},
          "ban": {"oneOf": [{"$ref": "#/components/schemas/Ban"}, {"type": "null"}], "description": "The ban that keeps it out for the kick's duration; null without a duration"}
        }
      }
    }
  }
}
"""#
}

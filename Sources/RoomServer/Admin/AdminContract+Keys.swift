import Foundation

/// The admin contract's keys (#44), next to their routes (`AdminKeyRoutes`),
/// merged by `AdminContract.document`.
extension AdminContract {
    static let keysJSON = #"""
{
  "paths": {
    "/admin/v1/me": {
      "get": {
        "operationId": "whoAmI",
        "summary": "Who this key is and what it may do",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Me"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/keys": {
      "get": {
        "operationId": "listAdminKeys",
        "summary": "The tenant's admin keys made through this API, newest first (revoked ones too; never the key itself)",
        "description": "Needs the `keys` scope. A tenant file's `adminKeys` (bootstrap keys with every scope) are not listed.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AdminKeyPage"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}]
      },
      "post": {
        "operationId": "createAdminKey",
        "summary": "Make an admin key with some scopes; the answer holds the key, once",
        "description": "Scopes: `read` (every GET), `rooms` (create, extend, dissolve), `moderation` (kicks, bans, mutes, ending sessions), `webhooks` (tests, retries, replays), `keys` (make, list and revoke keys). A key grants only scopes the key making it holds (403 otherwise). A request outside its key's scopes is answered 403 naming the scope. Only the key's SHA-256 is kept; the audit log names the key as `key:<id> (<label>)`.",
        "tags": ["admin"],
        "responses": {
          "201": {
            "description": "Created",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AdminKey"}}},
            "headers": {"Location": {"schema": {"type": "string"}, "description": "The key's URL"}},
            "links": {
              "RevokeAdminKey": {"operationId": "revokeAdminKey", "parameters": {"tenant": "$request.path.tenant", "keyId": "$response.body#/id"}}
            }
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
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/NewAdminKey"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/keys/{keyId}": {
      "delete": {
        "operationId": "revokeAdminKey",
        "summary": "Revoke an admin key: refused on every instance from the next request",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "The key, revoked (revoking twice keeps the first time)",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AdminKey"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "keyId", "in": "path", "required": true, "description": "The key's id (`ak…`)", "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000/]*$"}}
        ]
      }
    }
  },
  "components": {
    "schemas": {
      "AdminScope": {"type": "string", "enum": ["read", "rooms", "moderation", "webhooks", "keys"]},
      "Me": {
        "type": "object",
        "required": ["actor", "scopes"],
        "additionalProperties": false,
        "properties": {
          "actor": {"type": "string", "description": "`operator`, `tenant-admin` (a tenant file's key) or `key:<id> (<label>)`"},
          "tenant": {"type": "string", "description": "the tenant a tenant's key reaches; absent for the operator"},
          "scopes": {"type": "array", "items": {"$ref": "#/components/schemas/AdminScope"}}
        }
      },
      "NewAdminKey": {
        "type": "object",
        "required": ["label", "scopes"],
        "properties": {
          "label": {"type": "string", "pattern": "^[A-Za-z0-9 ._@-]{1,64}$", "description": "Who holds the key"},
          "scopes": {"type": "array", "minItems": 1, "maxItems": 5, "items": {"$ref": "#/components/schemas/AdminScope"}},
          "expiresInSeconds": {"type": ["integer", "null"], "minimum": 60, "maximum": 158112000, "description": "absent or null: no expiry"}
        }
      },
      "AdminKey": {
        "type": "object",
        "required": ["id", "label", "scopes", "createdAt", "createdBy"],
        "additionalProperties": false,
        "properties": {
          "id": {"type": "string"},
          "label": {"type": "string"},
          "scopes": {"type": "array", "items": {"$ref": "#/components/schemas/AdminScope"}},
          "createdAt": {"type": "string", "format": "date-time"},
          "createdBy": {"type": "string", "description": "who made it, as the audit log names callers"},
          "expiresAt": {"type": "string", "format": "date-time"},
          "revokedAt": {"type": "string", "format": "date-time"},
          "lastUsedAt": {"type": "string", "format": "date-time", "description": "to the minute"},
          "key": {"type": "string", "description": "the key itself: only in the answer that made it"}
        }
      },
      "AdminKeyPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/AdminKey"}},
          "nextCursor": {"type": ["string", "null"], "description": "always null: a tenant's keys fit one page"}
        }
      }
    }
  }
}
"""#
}

import Foundation
import RoomCore

/// The admin contract's audit log (#29), next to its routes
/// (`AdminAuditRoutes`), merged by `AdminContract.document`.
extension AdminContract {
    static let auditJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/audit": {
      "get": {
        "operationId": "listTenantAudit",
        "summary": "The tenant's audit log: one row per privileged act",
        "description": "Every admin API write (the operator's and the tenant's admin keys'), every host's kick or ban, session revokes, webhook tests, replays and retries. A row is written in the act's own transaction: an act that failed left none. Newest first; with `after`, oldest first from that cursor (follow the log by passing each answer's `nextCursor` as the next `after`).",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AuditPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"$ref": "#/components/parameters/auditAfter"},
          {"$ref": "#/components/parameters/auditBefore"},
          {"$ref": "#/components/parameters/auditAction"},
          {"$ref": "#/components/parameters/auditActor"},
          {"$ref": "#/components/parameters/limit"}
        ]
      }
    },
    "/admin/v1/audit": {
      "get": {
        "operationId": "listAudit",
        "summary": "Every tenant's audit log and the operator's own acts (the operator key only)",
        "description": "As a tenant's, across tenants; `tenant` narrows it to one. Acts on no one tenant (a tenant reload) have `tenant` null.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AuditPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        },
        "parameters": [
          {"name": "tenant", "in": "query", "description": "only this tenant's rows", "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
          {"$ref": "#/components/parameters/auditAfter"},
          {"$ref": "#/components/parameters/auditBefore"},
          {"$ref": "#/components/parameters/auditAction"},
          {"$ref": "#/components/parameters/auditActor"},
          {"$ref": "#/components/parameters/limit"}
        ]
      }
    }
  },
  "components": {
    "parameters": {
      "auditAfter": {
        "name": "after", "in": "query", "description": "Rows after this cursor, oldest first (up to `before`, if given)",
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}
      },
      "auditBefore": {
        "name": "before", "in": "query", "description": "Rows before this cursor: newest first, or with `after` the end of the range",
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}
      },
      "auditAction": {
        "name": "action", "in": "query", "description": "Only this action (`room.create`, `member.kick`, `tenant.ban`, …)",
        "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$"}
      },
      "auditActor": {
        "name": "actor", "in": "query", "description": "Only this actor (`operator`, `tenant-admin`, `key:<id> (<label>)`, `account:<id>`) or key fingerprint",
        "schema": {"type": "string", "minLength": 1, "maxLength": 140, "pattern": "^[^\\u0000]*$"}
      }
    },
    "schemas": {
      "AuditEntry": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "tenant", "at", "actor", "keyFingerprint", "action", "target", "outcome", "requestId", "clientAddress", "detail"],
        "properties": {
          "id": {"type": "string", "description": "The row's cursor"},
          "tenant": {"type": ["string", "null"], "description": "Null for an act on no one tenant (a tenant reload)"},
          "at": {"type": "string", "format": "date-time"},
          "actor": {"type": "string", "description": "`operator`, `tenant-admin` (a tenant file's key), `key:<id> (<label>)` (a key made through the API), `account:<id>` (a room's host) or `system`"},
          "keyFingerprint": {"type": ["string", "null"], "description": "16 hex digits of the admin key's HMAC-SHA-256 under the server's secret (never the key); null for a host, and for the operator's acts shown to a tenant"},
          "action": {"type": "string", "enum": \#(AuditAction.jsonList), "description": "What was done"},
          "target": {"type": "string", "description": "What was acted on: room:<id>, room:<id>/account:<id>, account:<id>, outbox:<id>, webhook:<name>, tenants"},
          "outcome": {"type": "string", "description": "What came of it in a word or two (ok, removed, not a member, 3 sessions, 2 replayed)"},
          "requestId": {"type": ["string", "null"], "description": "The request's X-Request-Id (the caller's, or one the server drew)"},
          "clientAddress": {"type": ["string", "null"]},
          "detail": {"type": "object", "additionalProperties": {"type": "string"}}
        }
      },
      "AuditPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/AuditEntry"}},
          "nextCursor": {"type": ["string", "null"], "description": "With `after`: the last row's cursor, to pass as the next `after` (the same cursor when nothing new came). Without: pass as `before` for older rows; null on the last page."}
        }
      }
    }
  }
}
"""#
}

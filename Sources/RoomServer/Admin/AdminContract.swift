import Foundation

/// The admin API's OpenAPI 3.1 contract, served at `GET /admin/v1/openapi.json`
/// without a key. `AdminContractTests` proves it against the router both ways
/// (every admin route is in it, every operation in it is answered) and
/// `ops/test` validates it with openapi-spec-validator. Edit it with the routes;
/// kicks and bans are in `AdminContract+Moderation.swift`, merged by `document`.
enum AdminContract {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "Roomkeeper admin API",
    "version": "1.0.0",
    "description": "The operator's and tenant admins' API of Roomkeeper. JSON in and out; every error is an RFC 9457 problem (`application/problem+json`) with a stable `code` and, for bad input, the `field` it names. Keys go in `Authorization: Bearer`: the operator key reaches every tenant, a tenant admin key only its own tenant. Lists are pages, newest first: pass `nextCursor` back as `cursor`. Every POST in a tenant takes an optional `Idempotency-Key` header (1-255 visible ASCII characters): a retry with the same key and the same request gets the first answer again (with `Idempotency-Replayed: true`) for 24 hours; the key on a different request is 422 `idempotency_key_reused`; a retry while the first still runs is 409 `idempotency_in_progress`; answers of 500 and above are not kept, except 503 `outcome_unknown` (the database connection broke as the change was committed: it may have been made), which keeps the key claimed, as does a first request that never finished (409 `idempotency_outcome_unknown` after 60 s): read before writing again with a new key."
  },
  "servers": [{"url": "/"}],
  "security": [{"bearer": []}],
  "tags": [{"name": "admin"}, {"name": "webhooks", "description": "Signed deliveries to tenants' back ends (Standard Webhooks)"}],
  "paths": {
    "/admin/v1/openapi.json": {
      "get": {
        "operationId": "getContract",
        "summary": "This document",
        "tags": ["admin"],
        "responses": {"200": {"description": "OK", "content": {"application/json": {"schema": {"type": "object"}}}}},
        "security": []
      }
    },
    "/admin/v1/tenants": {
      "get": {
        "operationId": "listTenants",
        "summary": "The tenants this key reaches",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TenantPage"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/admin/v1/tenants/reload": {
      "post": {
        "operationId": "reloadTenants",
        "summary": "Re-read the tenant files, on every instance",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Reload"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "422": {"$ref": "#/components/responses/Unprocessable"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        },
        "description": "Operator key only. An invalid set is refused with 422 `invalid_tenants` listing every issue; the previous tenants stay in force."
      }
    },
    "/admin/v1/plugins": {
      "get": {
        "operationId": "listPlugins",
        "summary": "The scenario plugins this server hosts",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/PluginPage"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "503": {"$ref": "#/components/responses/Unavailable"}
        }
      }
    },
    "/admin/v1/tenants/{tenant}": {
      "get": {
        "operationId": "getTenant",
        "summary": "One tenant: its providers and plugins",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tenant"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}]
      }
    },
    "/admin/v1/tenants/{tenant}/rooms": {
      "get": {
        "operationId": "listRooms",
        "summary": "A tenant's rooms, newest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RoomPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "state", "in": "query", "schema": {"type": "string", "enum": ["open", "closed"]}},
          {"name": "plugin", "in": "query", "schema": {"type": "string", "maxLength": 64, "pattern": "^[^\\u0000]*$"}},
          {"name": "owner", "in": "query", "description": "only this account's rooms", "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      },
      "post": {
        "operationId": "createRoom",
        "summary": "Create a room",
        "tags": ["admin"],
        "responses": {
          "201": {
            "description": "Created",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Room"}}},
            "headers": {"Location": {"schema": {"type": "string"}, "description": "The new room's URL"}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"},
          "413": {"$ref": "#/components/responses/TooLarge"},
          "415": {"$ref": "#/components/responses/UnsupportedMediaType"},
          "422": {"$ref": "#/components/responses/Unprocessable"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "502": {"$ref": "#/components/responses/BadGateway"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/CreateRoom"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}": {
      "get": {
        "operationId": "getRoom",
        "summary": "One room with its members and event timeline",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/RoomDetail"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}]
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/dissolve": {
      "post": {
        "operationId": "dissolveRoom",
        "summary": "Close a room now (reason `dissolved`)",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Room"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/room"}]
      }
    },
    "/admin/v1/tenants/{tenant}/rooms/{room}/extend": {
      "post": {
        "operationId": "extendRoom",
        "summary": "Move an open room's expiry later",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Room"}}}
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
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Extend"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/outbox": {
      "get": {
        "operationId": "listOutbox",
        "summary": "A tenant's outbox entries (side effects for IM and media vendors, webhook deliveries), newest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OutboxEntryPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "status", "in": "query", "schema": {"type": "string", "enum": ["pending", "delivered", "dead"]}},
          {"name": "kind", "in": "query", "schema": {"type": "string", "enum": ["im", "live", "webhook"]}},
          {"$ref": "#/components/parameters/limit"},
          {"$ref": "#/components/parameters/cursor"}
        ]
      }
    },
    "/admin/v1/tenants/{tenant}/outbox/{entry}/retry": {
      "post": {
        "operationId": "retryOutboxEntry",
        "summary": "Deliver a dead (or backing-off) entry again, with fresh attempts, now",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OutboxEntry"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"$ref": "#/components/responses/Conflict"}
        },
        "description": "409 `already_delivered` for a delivered entry, 409 `delivery_in_progress` while an attempt is under way.",
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {
            "name": "entry",
            "in": "path",
            "required": true,
            "schema": {"type": "integer", "format": "int64", "minimum": 1}
          }
        ]
      }
    },
    "/admin/v1/tenants/{tenant}/outbox/{entry}/attempts": {
      "get": {
        "operationId": "listOutboxAttempts",
        "summary": "An outbox entry's delivery attempts, newest first: outcome, latency and, for webhooks, the receiver's status",
        "tags": ["webhooks"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/AttemptPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}, {"$ref": "#/components/parameters/entry"}, {"$ref": "#/components/parameters/limit"}]
      }
    },
    "/admin/v1/tenants/{tenant}/outbox/replay": {
      "post": {
        "operationId": "replayDeadOutbox",
        "summary": "Deliver again every dead entry written since a time (of one webhook endpoint, when named), in order",
        "tags": ["webhooks"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Replayed"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}],
        "requestBody": {
          "required": true,
          "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Replay"}}}
        }
      }
    },
    "/admin/v1/tenants/{tenant}/webhooks": {
      "get": {
        "operationId": "listWebhookEndpoints",
        "summary": "A tenant's webhook endpoints as its file configures them (never their secrets)",
        "tags": ["webhooks"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/WebhookEndpointPage"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}]
      }
    },
    "/admin/v1/tenants/{tenant}/webhooks/{endpoint}/test": {
      "post": {
        "operationId": "sendTestWebhook",
        "summary": "Queue a signed `webhook.test` event for one endpoint; follow it in the outbox",
        "tags": ["webhooks"],
        "responses": {
          "202": {
            "description": "Queued",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/OutboxEntry"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "endpoint", "in": "path", "required": true, "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$"}}
        ]
      }
    },
    "/admin/v1/tenants/{tenant}/activity": {
      "get": {
        "operationId": "getActivity",
        "summary": "Room transitions per minute (created, joined, left, closed) over the last minutes, oldest first",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Activity"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {"name": "minutes", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 1440, "default": 60}}
        ]
      }
    },
    "/admin/v1/tenants/{tenant}/stats": {
      "get": {
        "operationId": "getStats",
        "summary": "Counts of a tenant's rooms by plugin and state, and of its outbox by status",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Stats"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}]
      }
    },
    "/admin/v1/tenants/{tenant}/accounts/{accid}/sessions/revoke": {
      "post": {
        "operationId": "revokeSessions",
        "summary": "End every session of an account now, and its IM tokens and sockets",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Revoked"}}}
          },
          "400": {"$ref": "#/components/responses/BadRequest"},
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [
          {"$ref": "#/components/parameters/tenant"},
          {
            "name": "accid",
            "in": "path",
            "required": true,
            "schema": {"type": "string", "minLength": 1, "maxLength": 128, "pattern": "^[^\\u0000]*$"}
          }
        ]
      }
    }
  },
  "components": {
    "securitySchemes": {
      "bearer": {
        "type": "http",
        "scheme": "bearer",
        "description": "The operator key (every tenant) or a tenant admin key (that tenant)."
      }
    },
    "parameters": {
      "tenant": {
        "name": "tenant",
        "in": "path",
        "required": true,
        "schema": {"type": "string", "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$"}
      },
      "room": {
        "name": "room",
        "in": "path",
        "required": true,
        "schema": {"type": "integer", "format": "int64", "minimum": 1}
      },
      "entry": {
        "name": "entry",
        "in": "path",
        "required": true,
        "schema": {"type": "integer", "format": "int64", "minimum": 1}
      },
      "limit": {
        "name": "limit",
        "in": "query",
        "schema": {"type": "integer", "minimum": 1, "maximum": 200, "default": 50}
      },
      "cursor": {
        "name": "cursor",
        "in": "query",
        "description": "`nextCursor` of the previous page",
        "schema": {"type": "string", "pattern": "^[0-9]{1,18}$"}
      }
    },
    "responses": {
      "BadRequest": {
        "description": "Bad input: `invalid_parameter` (or another code) naming the `field`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Unauthorized": {
        "description": "No key, or an unknown one: `unauthorized`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Forbidden": {
        "description": "The key does not reach this tenant, or the operation is the operator's: `forbidden`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "NotFound": {
        "description": "`not_found`, `room_not_found`, `plugin_not_enabled` (the tenant does not enable the plugin), `reference_not_found` (a field names what the tenant does not have: a lesson's student, a headset bound to the owner)",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Conflict": {
        "description": "The room's state refuses it (`room_closed`, `room_full`, `conflicts_with_state` naming the field, …), or `plugin_refused`, `already_delivered`, `delivery_in_progress`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "TooLarge": {
        "description": "`body_too_large`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "UnsupportedMediaType": {
        "description": "The body is not JSON",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Unprocessable": {
        "description": "`plugin_not_enabled`, `invalid_options`, `invalid_tenants`",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "BadGateway": {
        "description": "`provider_refused`: the IM or media vendor the request needed refused it",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "Unavailable": {
        "description": "`database_unavailable`, or `provider_unavailable` (the IM or media vendor did not answer): nothing was done; try again after `Retry-After` seconds",
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      },
      "TooManyRequests": {
        "description": "`rate_limited`: past the tenant's admin budget (its file's `[limits]`), or this address sent too many unknown keys, or (webhook tests) past 10 test events a minute per tenant; nothing was done; try again after `Retry-After` seconds",
        "headers": {
          "Retry-After": {"schema": {"type": "string"}, "description": "Seconds to wait"},
          "RateLimit-Policy": {"schema": {"type": "string"}, "description": "The budget met, per second: `\"admin\";q=50;w=1`"},
          "RateLimit": {"schema": {"type": "string"}, "description": "None left, for `t` seconds: `\"admin\";r=0;t=1`"}
        },
        "content": {"application/problem+json": {"schema": {"$ref": "#/components/schemas/Problem"}}}
      }
    },
    "schemas": {
      "Problem": {
        "type": "object",
        "required": ["type", "title", "status", "detail", "code"],
        "properties": {
          "type": {"type": "string", "format": "uri"},
          "title": {"type": "string"},
          "status": {"type": "integer", "minimum": 400, "maximum": 599},
          "detail": {"type": "string"},
          "code": {
            "type": "string",
            "enum": [
              "invalid_parameter",
              "body_too_large",
              "unauthorized",
              "forbidden",
              "not_found",
              "room_not_found",
              "room_closed",
              "room_full",
              "reserved_for_others",
              "banned",
              "not_in_im_chatroom",
              "not_member",
              "too_many_rooms",
              "too_many_rooms_for_owner",
              "too_many_accounts",
              "service_busy",
              "not_owner",
              "plugin_not_enabled",
              "invalid_options",
              "reference_not_found",
              "conflicts_with_state",
              "idempotency_in_progress",
              "idempotency_outcome_unknown",
              "idempotency_key_reused",
              "rate_limited",
              "plugin_refused",
              "method_not_allowed",
              "already_delivered",
              "delivery_in_progress",
              "invalid_tenants",
              "provider_unavailable",
              "provider_refused",
              "database_unavailable",
              "outcome_unknown",
              "internal",
              "http_405",
              "http_415"
            ]
          },
          "field": {"type": "string"},
          "issues": {"type": "array", "items": {"type": "string"}}
        }
      },
      "Tenant": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "name", "imProvider", "liveProvider", "intercomProvider", "plugins"],
        "properties": {
          "id": {"type": "string"},
          "name": {"type": "string"},
          "imProvider": {"type": "string"},
          "liveProvider": {"type": "string"},
          "intercomProvider": {"type": "string"},
          "plugins": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "wire", "roomTTLSeconds", "capacity", "joinRequiresIM"],
              "properties": {
                "id": {"type": "string"},
                "wire": {"type": "string"},
                "roomTTLSeconds": {"type": "integer"},
                "capacity": {"type": "integer"},
                "joinRequiresIM": {"type": "boolean"}
              }
            }
          }
        }
      },
      "Plugin": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "wire", "defaultRoomTTLSeconds", "defaultCapacity", "routes"],
        "properties": {
          "id": {"type": "string"},
          "wire": {"type": "string"},
          "defaultRoomTTLSeconds": {"type": "integer"},
          "defaultCapacity": {"type": "integer"},
          "routes": {"type": "array", "items": {"type": "string"}}
        }
      },
      "Reload": {
        "type": "object",
        "additionalProperties": false,
        "required": ["applied", "tenants"],
        "properties": {"applied": {"type": "boolean"}, "tenants": {"type": "integer"}}
      },
      "Room": {
        "type": "object",
        "additionalProperties": false,
        "required": [
          "tenant",
          "id",
          "plugin",
          "name",
          "owner",
          "state",
          "capacity",
          "createdAt",
          "expiresAt",
          "attributes"
        ],
        "properties": {
          "tenant": {"type": "string"},
          "id": {"type": "integer", "format": "int64"},
          "plugin": {"type": "string"},
          "name": {"type": "string"},
          "owner": {"type": "string"},
          "state": {"type": "string", "enum": ["open", "closed"]},
          "closeReason": {"type": ["string", "null"]},
          "capacity": {"type": "integer"},
          "createdAt": {"type": "string", "format": "date-time"},
          "expiresAt": {"type": "string", "format": "date-time"},
          "closedAt": {"type": ["string", "null"], "format": "date-time"},
          "reservation": {
            "type": ["object", "null"],
            "description": "null: the room is not reserved",
            "additionalProperties": false,
            "required": ["accounts", "until", "onLapse"],
            "properties": {
              "accounts": {"type": "array", "items": {"type": "string"}},
              "until": {"type": "string", "format": "date-time"},
              "claimedAt": {"type": ["string", "null"], "format": "date-time"},
              "onLapse": {"type": "string"}
            }
          },
          "imChatroomId": {"type": ["string", "null"]},
          "attributes": {"type": "object"}
        }
      },
      "RoomDetail": {
        "type": "object",
        "additionalProperties": false,
        "required": ["room", "members", "events"],
        "properties": {
          "room": {"$ref": "#/components/schemas/Room"},
          "members": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["accid", "role", "status", "joinedAt"],
              "properties": {
                "accid": {"type": "string"},
                "role": {"type": "string"},
                "status": {"type": "string"},
                "joinedAt": {"type": "string", "format": "date-time"}
              }
            }
          },
          "events": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["id", "at", "kind", "actor", "detail"],
              "properties": {
                "id": {"type": "integer", "format": "int64"},
                "at": {"type": "string", "format": "date-time"},
                "kind": {"type": "string"},
                "actor": {"type": "string"},
                "detail": {}
              }
            }
          }
        }
      },
      "CreateRoom": {
        "type": "object",
        "required": ["plugin", "name", "owner"],
        "properties": {
          "plugin": {"type": "string", "minLength": 1},
          "name": {"type": "string", "minLength": 1},
          "owner": {"type": "string", "minLength": 1},
          "ttlSeconds": {"type": "integer", "minimum": 1},
          "options": {
            "type": "object",
            "description": "The plugin's creation data; a plugin whose rooms need some refuses with 422 naming the field."
          }
        }
      },
      "Extend": {
        "type": "object",
        "required": ["ttlSeconds"],
        "properties": {"ttlSeconds": {"type": "integer", "minimum": 1, "maximum": 31622400, "description": "Seconds added to the room's expiry (366 days at most); an expiry past 366 days from now is `conflicts_with_state`"}}
      },
      "OutboxEntry": {
        "type": "object",
        "additionalProperties": false,
        "required": ["id", "kind", "payload", "status", "attempts", "nextAttemptAt", "createdAt"],
        "properties": {
          "id": {"type": "integer", "format": "int64"},
          "roomId": {"type": ["integer", "null"], "format": "int64"},
          "kind": {"type": "string"},
          "payload": {},
          "status": {"type": "string", "enum": ["pending", "delivered", "dead"]},
          "attempts": {"type": "integer", "minimum": 0},
          "nextAttemptAt": {"type": "string", "format": "date-time"},
          "lastError": {"type": ["string", "null"]},
          "createdAt": {"type": "string", "format": "date-time"},
          "deliveredAt": {"type": ["string", "null"], "format": "date-time"}
        }
      },
      "Stats": {
        "type": "object",
        "additionalProperties": false,
        "required": ["tenant", "rooms", "outbox"],
        "properties": {
          "tenant": {"type": "string"},
          "rooms": {
            "type": "object",
            "additionalProperties": {"type": "object", "additionalProperties": {"type": "integer"}}
          },
          "outbox": {"type": "object", "additionalProperties": {"type": "integer"}}
        }
      },
      "Attempt": {
        "type": "object",
        "additionalProperties": false,
        "required": ["attempt", "at", "outcome", "latencyMs"],
        "properties": {
          "attempt": {"type": "integer", "minimum": 0},
          "at": {"type": "string", "format": "date-time"},
          "outcome": {"type": "string", "enum": ["delivered", "retry", "dead"]},
          "statusCode": {"type": ["integer", "null"], "description": "The receiver's HTTP status (webhooks); null when it did not answer"},
          "latencyMs": {"type": "integer", "minimum": 0},
          "error": {"type": ["string", "null"]}
        }
      },
      "AttemptPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/Attempt"}}, "nextCursor": {"type": ["string", "null"], "description": "always null: an entry's attempts fit one page"}}
      },
      "WebhookEndpoint": {
        "type": "object",
        "additionalProperties": false,
        "required": ["name", "url", "events", "signingSecrets"],
        "properties": {
          "name": {"type": "string"},
          "url": {"type": "string", "format": "uri"},
          "events": {"type": "array", "items": {"type": "string"}, "description": "Event types sent; \"*\" for all"},
          "signingSecrets": {"type": "integer", "minimum": 0, "description": "Signatures per delivery: two while a secret is rotated"}
        }
      },
      "WebhookEndpointPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/WebhookEndpoint"}}, "nextCursor": {"type": ["string", "null"], "description": "always null: a tenant's endpoints fit one page"}}
      },
      "Replay": {
        "type": "object",
        "required": ["since"],
        "properties": {
          "since": {"type": "string", "format": "date-time", "description": "Dead entries written at or after this time"},
          "endpoint": {"type": ["string", "null"], "minLength": 1, "maxLength": 64, "pattern": "^[^\\u0000]*$", "description": "Only this webhook endpoint's dead letters; null or absent for all; an endpoint the tenant does not have is `not_found`"}
        }
      },
      "Replayed": {
        "type": "object",
        "additionalProperties": false,
        "required": ["replayed"],
        "properties": {"replayed": {"type": "integer", "minimum": 0}}
      },
      "Activity": {
        "type": "object",
        "additionalProperties": false,
        "required": ["tenant", "buckets"],
        "properties": {
          "tenant": {"type": "string"},
          "buckets": {
            "type": "array",
            "items": {
              "type": "object",
              "additionalProperties": false,
              "required": ["minute", "created", "joined", "left", "closed"],
              "properties": {
                "minute": {"type": "string", "format": "date-time"},
                "created": {"type": "integer", "minimum": 0},
                "joined": {"type": "integer", "minimum": 0},
                "left": {"type": "integer", "minimum": 0},
                "closed": {"type": "integer", "minimum": 0}
              }
            }
          }
        }
      },
      "Revoked": {
        "type": "object",
        "additionalProperties": false,
        "required": ["revoked"],
        "properties": {"revoked": {"type": "integer", "minimum": 0}}
      },
      "TenantPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/Tenant"}},
          "nextCursor": {
            "type": ["string", "null"],
            "description": "Pass as `cursor` for the next page; null on the last page."
          }
        }
      },
      "PluginPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/Plugin"}},
          "nextCursor": {
            "type": ["string", "null"],
            "description": "Pass as `cursor` for the next page; null on the last page."
          }
        }
      },
      "RoomPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/Room"}},
          "nextCursor": {
            "type": ["string", "null"],
            "description": "Pass as `cursor` for the next page; null on the last page."
          }
        }
      },
      "OutboxEntryPage": {
        "type": "object",
        "required": ["items", "nextCursor"],
        "additionalProperties": false,
        "properties": {
          "items": {"type": "array", "items": {"$ref": "#/components/schemas/OutboxEntry"}},
          "nextCursor": {
            "type": ["string", "null"],
            "description": "Pass as `cursor` for the next page; null on the last page."
          }
        }
      }
    }
  }
}
"""#
}

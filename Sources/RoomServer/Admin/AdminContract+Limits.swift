import Foundation

/// The admin contract's request budgets and quotas (#41), next to their
/// route (`AdminLimitsRoutes`), merged by `AdminContract.document`.
extension AdminContract {
    static let limitsJSON = #"""
{
  "paths": {
    "/admin/v1/tenants/{tenant}/limits": {
      "get": {
        "operationId": "getTenantLimits",
        "summary": "The tenant's request budgets and quotas, and what it uses now",
        "description": "Budgets are requests a second and bursts, from the tenant file's `[limits]` (`clientPerSecond`, `clientBurst`, `adminPerSecond`, `adminBurst`, `accountPerSecond`, `accountBurst`) or the defaults. Each instance enforces its share (`perInstance`: the budget over the `instances` alive, counted every 5 s). Past a budget a request is answered 429 with `Retry-After`, `RateLimit-Policy` and `RateLimit`.",
        "tags": ["admin"],
        "responses": {
          "200": {
            "description": "OK",
            "content": {"application/json": {"schema": {"$ref": "#/components/schemas/TenantLimits"}}}
          },
          "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "503": {"$ref": "#/components/responses/Unavailable"},
          "404": {"$ref": "#/components/responses/NotFound"}
        },
        "parameters": [{"$ref": "#/components/parameters/tenant"}]
      }
    }
  },
  "components": {
    "schemas": {
      "Budget": {
        "type": "object",
        "required": ["perSecond", "burst"],
        "additionalProperties": false,
        "properties": {"perSecond": {"type": "integer", "minimum": 1}, "burst": {"type": "integer", "minimum": 1}}
      },
      "Budgets": {
        "type": "object",
        "required": ["client", "admin", "account"],
        "additionalProperties": false,
        "properties": {
          "client": {"$ref": "#/components/schemas/Budget"},
          "admin": {"$ref": "#/components/schemas/Budget"},
          "account": {"$ref": "#/components/schemas/Budget"}
        }
      },
      "TenantLimits": {
        "type": "object",
        "required": ["tenant", "instances", "budgets", "perInstance", "quotas", "usage"],
        "additionalProperties": false,
        "properties": {
          "tenant": {"type": "string"},
          "instances": {"type": "integer", "minimum": 1},
          "budgets": {"$ref": "#/components/schemas/Budgets"},
          "perInstance": {"$ref": "#/components/schemas/Budgets"},
          "quotas": {
            "type": "array",
            "items": {
              "type": "object",
              "required": ["plugin"],
              "additionalProperties": false,
              "properties": {
                "plugin": {"type": "string"},
                "maxOpenRooms": {"type": ["integer", "null"]},
                "maxOpenRoomsPerOwner": {"type": ["integer", "null"]}
              }
            }
          },
          "maxAccounts": {"type": ["integer", "null"], "minimum": 1, "description": "accounts the tenant may hold; absent: no quota"},
          "usage": {
            "type": "object",
            "required": ["openRooms", "accounts", "sockets"],
            "additionalProperties": false,
            "properties": {
              "openRooms": {"type": "integer", "minimum": 0},
              "accounts": {"type": "integer", "minimum": 0},
              "sockets": {"type": "integer", "minimum": 0}
            }
          }
        }
      }
    }
  }
}
"""#
}

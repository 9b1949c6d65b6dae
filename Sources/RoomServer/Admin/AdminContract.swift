import Foundation
import RoomCore

/// The admin API's OpenAPI 3.1 contract, served at `GET /admin/v1/openapi.json`
/// without a key. It is written once, in `Contract/admin-api.json` (a resource
/// of this module): edit it with the routes. Only what the hosted plugins
/// declare is added here (`createRoom`). `AdminContractTests` prove it
/// against the router both ways (every admin route is in it, every operation
/// in it is answered), against `AuditAction` and the problem codes the
/// routes send; `ops/test` validates it with openapi-spec-validator and
/// schemathesis checks every answer against it.
enum AdminContract {
    /// `Contract/admin-api.json` as written.
    static let file: String = {
        guard let url = Bundle.module.url(forResource: "admin-api", withExtension: "json"),
              let text = try? String(contentsOf: url, encoding: .utf8) else {
            fatalError("the admin contract (Contract/admin-api.json) is missing from the RoomServer resources")
        }
        return text
    }()

    /// The contract this build serves: `CreateRoom` is one schema per hosted
    /// plugin, its id as `plugin` and its own `options` (`creationOptions`),
    /// so a request the document calls valid is one the server takes (#27:
    /// schemathesis's "schema-valid data is accepted" check).
    static func document(plugins: [AnyRoomPlugin]) -> String {
        guard case .object(var root)? = JSONValue.parse(file), case .object(var components)? = root["components"],
              case .object(var schemas)? = components["schemas"] else {
            fatalError("the admin contract (Contract/admin-api.json) is not a JSON object with components.schemas")
        }
        let creation = createRoom(plugins)
        schemas["CreateRoom"] = creation.createRoom
        schemas.merge(creation.named) { _, plugin in plugin }
        components["schemas"] = .object(schemas)
        root["components"] = .object(components)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONValue.object(root)) else { fatalError("the admin contract did not encode") }
        return String(decoding: data, as: UTF8.self)
    }

    /// `CreateRoom` and, per plugin, `Create<Plugin>Room` and its
    /// `<Plugin>RoomOptions`, each a named schema: a client generator names
    /// its types after them (openapi-python-client made two types of one
    /// name from the inline branches, and dropped both).
    static func createRoom(_ plugins: [AnyRoomPlugin]) -> (createRoom: JSONValue, named: [String: JSONValue]) {
        var named: [String: JSONValue] = [:]
        let branches: [JSONValue] = plugins.map { plugin in
            let typeName = plugin.id.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined()
            var required: [JSONValue] = ["plugin", "name", "owner"]
            if plugin.creationOptions["required"]?.arrayValue?.isEmpty == false { required.append("options") }
            named["\(typeName)RoomOptions"] = plugin.creationOptions
            named["Create\(typeName)Room"] = ["type": "object", "title": .string(plugin.id), "required": .array(required),
                                               "properties": .object(createRoomProperties(plugin.id, typeName: typeName))]
            return ["$ref": .string("#/components/schemas/Create\(typeName)Room")]
        }
        let createRoom: JSONValue = ["oneOf": .array(branches),
                "description": "One schema per plugin this server hosts. A plugin the tenant does not enable is `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422)."]
        return (createRoom, named)
    }

    /// A create's fields, the same for every plugin but its id and options.
    static func createRoomProperties(_ pluginID: String, typeName: String) -> [String: JSONValue] {
        [
            // An enum of one, not `const`: both client generators make a
            // type of it (swift-openapi-generator 1.14.3 reads `const` as any value).
            "plugin": ["type": "string", "enum": [.string(pluginID)]],
            "name": TextRules.nameSchema(1...128, description: "Shown to members; blanks at either end are trimmed"),
            "owner": TextRules.schema(1...128, description: "The owner's account"),
            "ttlSeconds": ["type": ["integer", "null"], "minimum": 1, "maximum": .number(Double(RoomLifecycle.ttlRange.upperBound)),
                           "description": "Seconds until the room expires (366 days at most); the tenant's policy when absent or null"],
            "options": ["$ref": .string("#/components/schemas/\(typeName)RoomOptions")],
        ]
    }

    /// A request body's fields and those the contract lets be null, as its
    /// schema names them (#42: a body's field list is the contract's, not a
    /// third copy written by hand).
    struct BodyFields: Sendable, Equatable {
        let fields: Set<String>
        let nullable: Set<String>
    }

    /// Every object schema of the file, and `CreateRoom` (made per plugin,
    /// its fields the same for each).
    static let bodies: [String: BodyFields] = {
        guard case .object(let root)? = JSONValue.parse(file), case .object(let components)? = root["components"],
              case .object(var schemas)? = components["schemas"] else {
            fatalError("the admin contract (Contract/admin-api.json) is not a JSON object with components.schemas")
        }
        schemas["CreateRoom"] = ["properties": .object(createRoomProperties("any", typeName: "Any"))]
        return schemas.compactMapValues { schema in
            guard case .object(let properties)? = schema["properties"] else { return nil }
            let nullable = properties.filter { $0.value["type"]?.arrayValue?.contains(.string("null")) == true }.keys
            return BodyFields(fields: Set(properties.keys), nullable: Set(nullable))
        }
    }()

    /// `schema`'s fields; a body naming a schema the contract lacks is a
    /// programming error, caught by `AdminContractTests` before it ships.
    static func body(_ schema: String) -> BodyFields {
        guard let fields = bodies[schema] else { fatalError("the admin contract has no object schema \(schema)") }
        return fields
    }
}

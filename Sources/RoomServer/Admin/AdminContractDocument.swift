import Foundation
import RoomCore

extension AdminContract {
    /// The contract this build serves: `CreateRoom` is one schema per hosted
    /// plugin, its id as `plugin` and its own `options` (`creationOptions`),
    /// so a request the document calls valid is one the server takes (#27:
    /// schemathesis's "schema-valid data is accepted" check).
    /// The parts kept beside their routes are merged in (`moderationJSON`, `auditJSON`).
    static func document(plugins: [AnyRoomPlugin]) -> String {
        guard case .object(var root)? = JSONValue.parse(json), case .object(var components)? = root["components"],
              case .object(var schemas)? = components["schemas"], case .object(var paths)? = root["paths"],
              case .object(var parameters)? = components["parameters"] else { return json }
        for text in [moderationJSON, auditJSON, eventsJSON, sessionsJSON, usageJSON, limitsJSON, keysJSON] {
            guard case .object(let part)? = JSONValue.parse(text), case .object(let partPaths)? = part["paths"] else { return json }
            paths.merge(partPaths) { first, _ in first }
            if case .object(let partParameters)? = part["components"]?["parameters"] { parameters.merge(partParameters) { first, _ in first } }
            if case .object(let partSchemas)? = part["components"]?["schemas"] { schemas.merge(partSchemas) { first, _ in first } }
        }
        let creation = createRoom(plugins)
        schemas["CreateRoom"] = creation.createRoom
        schemas.merge(creation.named) { _, plugin in plugin }
        paths = throttled(paths)
        components["schemas"] = .object(schemas)
        components["parameters"] = .object(parameters)
        root["components"] = .object(components)
        root["paths"] = .object(paths)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(JSONValue.object(root)) else { return json }
        return String(decoding: data, as: UTF8.self)
    }

    /// Every operation that takes a key may be answered 429 (#41): a
    /// tenant key past its budget, an address past its unknown keys.
    static func throttled(_ paths: [String: JSONValue]) -> [String: JSONValue] {
        paths.mapValues { item in
            guard case .object(var operations) = item else { return item }
            for (method, operation) in operations {
                guard case .object(var fields) = operation, case .object(var responses)? = fields["responses"],
                      responses["401"] != nil else { continue }
                responses["429"] = ["$ref": "#/components/responses/TooManyRequests"]
                fields["responses"] = .object(responses)
                operations[method] = .object(fields)
            }
            return .object(operations)
        }
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
            named["Create\(typeName)Room"] = [
                "type": "object", "title": .string(plugin.id), "required": .array(required),
                "properties": [
                    // An enum of one, not `const`: both client generators make a
                    // type of it (swift-openapi-generator 1.14.3 reads `const` as any value).
                    "plugin": ["type": "string", "enum": [.string(plugin.id)]],
                    "name": TextRules.nameSchema(1...128, description: "Shown to members; blanks at either end are trimmed"),
                    "owner": TextRules.schema(1...128, description: "The owner's account"),
                    "ttlSeconds": ["type": ["integer", "null"], "minimum": 1, "maximum": .number(Double(RoomLifecycle.ttlRange.upperBound)),
                                   "description": "Seconds until the room expires (366 days at most); the tenant's policy when absent or null"],
                    "options": ["$ref": .string("#/components/schemas/\(typeName)RoomOptions")],
                ],
            ]
            return ["$ref": .string("#/components/schemas/Create\(typeName)Room")]
        }
        let createRoom: JSONValue = ["oneOf": .array(branches),
                "description": "One schema per plugin this server hosts. A plugin the tenant does not enable is `plugin_not_enabled` (404); an option the plugin does not name is `invalid_options` (422)."]
        return (createRoom, named)
    }
}

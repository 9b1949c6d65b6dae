import Foundation
import HTTPTypes
import RoomCore
import RoomTestSupport
import Testing

/// #18, item 1: the admin API's OpenAPI contract cannot drift from the code.
/// Every admin route is in the document and every operation in the document
/// is answered, with a status the document lists for it; every problem code
/// the admin API can send is in the document's list, and nothing else is.
@Suite struct AdminContractTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    @Test func theDocumentAndTheRouterAgreeBothWays() async throws {
        let fixture = try await ServerFixture()
        let routed = Set(try fixture.server().buildRouter().routes.compactMap { route -> String? in
            let path = route.path.description
            return path.hasPrefix("/admin/v1") ? "\(route.method.rawValue.lowercased()) \(path)" : nil
        })
        #expect(routed.count >= 14, "the router's admin routes were read: \(routed.sorted())")
        try await fixture.live { http in
            let served = try await http.get("/admin/v1/openapi.json")
            #expect(served.status == .ok && served.headers[.contentType] == "application/json", "served without a key")
            let document = served.json
            #expect(document["openapi"]?.string == "3.1.0")
            guard case .object(let paths)? = document["paths"] else { Issue.record("no paths"); return }
            var operations: [(method: String, path: String, responses: Set<String>)] = []
            for (path, item) in paths {
                guard case .object(let methods) = item else { continue }
                for (method, operation) in methods {
                    guard case .object(let responses)? = operation["responses"] else { Issue.record("\(method) \(path): no responses"); continue }
                    operations.append((method, path, Set(responses.keys)))
                }
            }
            let documented = Set(operations.map { "\($0.method) \($0.path)" })
            #expect(documented == routed, "only in the router: \(routed.subtracting(documented).sorted()); only in the document: \(documented.subtracting(routed).sorted())")

            // Each operation called for real, with the operator key and real ids.
            let tenant = fixture.id(0)
            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.operatorKey, json: #"{"plugin":"test-rooms","name":"contract","owner":"o"}"#)
            let room = try #require(created.json["id"]?.int64)
            let bodies = ["/admin/v1/tenants/{tenant}/rooms": #"{"plugin":"test-rooms","name":"contract 2","owner":"p"}"#,
                          "/admin/v1/tenants/{tenant}/rooms/{room}/extend": #"{"ttlSeconds":60}"#,
                          "/admin/v1/tenants/{tenant}/outbox/replay": #"{"since":"2026-01-01T00:00:00Z"}"#,
                          "/admin/v1/tenants/{tenant}/rooms/{room}/bans": #"{"account":"z","durationSeconds":60}"#,
                          "/admin/v1/tenants/{tenant}/bans": #"{"account":"z","durationSeconds":60}"#,
                          "/admin/v1/tenants/{tenant}/rooms/{room}/mutes": #"{"account":"z","durationSeconds":60}"#,
                          "/admin/v1/tenants/{tenant}/keys": #"{"label":"contract","scopes":["read"]}"#]
            var auditedActions: Set<String> = []
            // The dissolve last, so the other calls meet an open room.
            for operation in operations.sorted(by: { ($0.path.hasSuffix("dissolve") ? 1 : 0, $0.path) < ($1.path.hasSuffix("dissolve") ? 1 : 0, $1.path) }) {
                let uri = operation.path.replacingOccurrences(of: "{tenant}", with: tenant).replacingOccurrences(of: "{room}", with: "\(room)")
                    .replacingOccurrences(of: "{entry}", with: "1").replacingOccurrences(of: "{accid}", with: "o")
                    .replacingOccurrences(of: "{endpoint}", with: "backend").replacingOccurrences(of: "{account}", with: "o")
                    .replacingOccurrences(of: "{ban}", with: "1").replacingOccurrences(of: "{mute}", with: "1")
                    .replacingOccurrences(of: "{keyId}", with: "ak0")
                let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
                let requestID = "contract-" + Secrets.randomToken(bytes: 6)
                let answer = try await http.request(method, uri, key: fixture.operatorKey,
                                                    json: operation.method == "post" ? (bodies[operation.path] ?? "{}") : nil,
                                                    headers: [HTTPField.Name("X-Request-Id")!: requestID])
                #expect(operation.responses.contains(String(answer.status.code)),
                        "\(operation.method) \(operation.path) answered \(answer.status.code), which the document does not list: \(answer.text.prefix(200))")
                #expect(answer.status.code < 500, "\(operation.method) \(operation.path): \(answer.text.prefix(200))")
                #expect(operation.path.hasSuffix("openapi.json") || answer.headers[HTTPField.Name("X-Request-Id")!] == requestID,
                        "\(operation.method) \(operation.path) echoes the request id")
                // #29: every admin write that succeeds leaves one audit row, a
                // read or a refusal none (found by the request's own id).
                let audited = try await fixture.database.query("SELECT action FROM audit_log WHERE request_id = \(requestID)").decode(String.self)
                let expected = operation.method != "get" && (200..<300).contains(answer.status.code) ? 1 : 0
                #expect(audited.count == expected, "\(operation.method) \(operation.path) (\(answer.status.code)) left \(audited) in the audit log")
                if expected == 1 { auditedActions.insert(audited[0]) }
            }
            #expect(auditedActions.count >= 8, "the writes were audited: \(auditedActions.sorted())")
        }
    }

    /// A method an admin path does not take is 405 with `Allow` listing the
    /// ones it does (the most specific route's: `tenants/reload` is not `tenants/:tenant`).
    /// Every `$ref` of the served document names something in it (#41: a
    /// response component lost in an edit broke the contract for
    /// openapi-spec-validator and schemathesis while every test here passed).
    /// #42: audit actions are one enum (`AuditAction`), written by the
    /// engine only as its cases and listed by the contract as exactly those
    /// (the description's list had lost member.mute and member.unmute).
    @Test func theContractListsExactlyTheAuditActions() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let document = try await http.get("/admin/v1/openapi.json").json
            let listed = document["components"]?["schemas"]?["AuditEntry"]?["properties"]?["action"]?["enum"]?.arrayValue?.compactMap(\.string)
            #expect(listed == AuditAction.allCases.map(\.rawValue), "\(String(describing: listed))")
        }
    }

    /// #42: the contract is written once, in `Contract/admin-api.json`.
    /// Every operation that takes a key lists 429 (#41: a tenant key past its
    /// budget, an address past its unknown keys), as written there, no longer
    /// added as the document is served.
    @Test func everyOperationThatTakesAKeyMayBeThrottled() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let document = try await http.get("/admin/v1/openapi.json").json
            guard case .object(let paths)? = document["paths"] else { Issue.record("no paths"); return }
            var keyed = 0
            for (path, item) in paths {
                guard case .object(let methods) = item else { continue }
                for (method, operation) in methods where operation["responses"]?["401"] != nil {
                    keyed += 1
                    #expect(operation["responses"]?["429"]?["$ref"]?.string == "#/components/responses/TooManyRequests", "\(method) \(path) takes a key but lists no 429")
                }
            }
            #expect(keyed >= 30, "the operations that take a key were read: \(keyed)")
        }
    }

    @Test func everyReferenceResolves() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            let document = try await http.get("/admin/v1/openapi.json").json
            var references: [String] = []
            func walk(_ value: JSONValue) {
                switch value {
                case .object(let fields):
                    if case .string(let ref)? = fields["$ref"] { references.append(ref) }
                    fields.values.forEach(walk)
                case .array(let items): items.forEach(walk)
                default: break
                }
            }
            walk(document)
            #expect(references.count > 100, "the document's references were read")
            let unresolved = Set(references).filter { ref in
                guard ref.hasPrefix("#/") else { return true }
                var node: JSONValue? = document
                for part in ref.dropFirst(2).split(separator: "/") { node = node?[String(part)] }
                return node == nil
            }
            #expect(unresolved.isEmpty, "unresolvable: \(unresolved.sorted())")
        }
    }

    @Test func anUndocumentedMethodIs405WithAllow() async throws {
        let fixture = try await ServerFixture()
        try await fixture.live { http in
            for (method, path, allow) in [(HTTPRequest.Method.delete, "/admin/v1/tenants", "GET"), (.options, "/admin/v1/tenants/reload", "POST"),
                                          (.put, "/admin/v1/tenants/\(fixture.id(0))/rooms", "GET, POST")] {
                let answer = try await http.request(method, path, key: fixture.operatorKey)
                #expect(answer.status == .methodNotAllowed && answer.headers[.allow] == allow && answer.json["code"]?.string == "method_not_allowed",
                        "\(method) \(path): \(answer.status) \(answer.headers[.allow] ?? "-")")
            }
            #expect(try await http.get("/admin/v1/nothing-here", key: fixture.operatorKey).status == .notFound, "an unknown path is still 404")
        }
    }

    @Test func everyProblemCodeTheAdminAPISendsIsDocumented() async throws {
        let fixture = try await ServerFixture()
        let document = try await fixture.live { http -> JSONValue in try await http.get("/admin/v1/openapi.json").json }
        guard case .array(let listed)? = document["components"]?["schemas"]?["Problem"]?["properties"]?["code"]?["enum"] else {
            Issue.record("the Problem schema lists no codes"); return
        }
        let documented = Set(listed.compactMap(\.string))
        // The codes admin routes can send: theirs, the shared HTTP layer's, and the engine's refusals.
        let literal = try Regex(#"code: "([a-z_]+)""#)
        var sent: Set<String> = []
        for folder in ["RoomServer/Admin", "RoomServer/HTTP", "RoomServer/Idempotency"] {
            let files = FileManager.default.enumerator(at: Self.sources.appendingPathComponent(folder), includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            for file in files {
                for match in try String(contentsOf: file, encoding: .utf8).matches(of: literal) { sent.insert(String(match.output[1].substring!)) }
            }
        }
        let engine = try String(contentsOf: Self.sources.appendingPathComponent("RoomKit/Rooms/RoomError.swift"), encoding: .utf8)
        let codeSwitch = try #require(engine.range(of: "public var code: String"))
        for match in engine[codeSwitch.upperBound...].matches(of: try Regex(#"case \.\w+: "([a-z_]+)""#)) { sent.insert(String(match.output[1].substring!)) }
        #expect(sent.count >= 20, "the codes were read: \(sent.sorted())")
        // Hummingbird's own refusals (a wrong method, a body that is not JSON) arrive as http_<status>.
        let undocumented = sent.subtracting(documented), unsent = documented.subtracting(sent).filter { !$0.hasPrefix("http_") }
        #expect(undocumented.isEmpty, "sent but not in the document: \(undocumented.sorted())")
        #expect(unsent.isEmpty, "in the document but never sent: \(unsent.sorted())")
    }
}

import Foundation
import HTTPTypes
import RoomCore
@testable import RoomServer
import RoomTestSupport
import Testing

/// Admin keys as objects (#44): made, listed and revoked through the API,
/// with scopes; only their hash is stored; the audit log names them.
@Suite struct AdminKeyTests {
    /// Makes a key for tenant 0 with `scopes`, by `key`; its id and the key.
    static func make(_ http: HTTP, _ fixture: ServerFixture, scopes: [String], by key: String, label: String = "ops bot",
                     expiresIn: Int? = nil) async throws -> (id: String, key: String) {
        let scopeList = scopes.map { "\"\($0)\"" }.joined(separator: ",")
        let expiry = expiresIn.map { #","expiresInSeconds":\#($0)"# } ?? ""
        let made = try await http.post("/admin/v1/tenants/\(fixture.id(0))/keys", key: key, json: #"{"label":"\#(label)","scopes":[\#(scopeList)]\#(expiry)}"#)
        #expect(made.status == .created, "\(made.text)")
        return (try #require(made.json["id"]?.string), try #require(made.json["key"]?.string))
    }

    static func first(_ page: HTTP.Answer) -> JSONValue? {
        guard case .array(let items)? = page.json["items"] else { return nil }
        return items.first
    }

    /// Every operation of the contract needs exactly the scope this table
    /// says: a new route fails here until someone decides its scope.
    @Test func everyContractRouteIsInExactlyOneScope() throws {
        let expected: [String: AdminScope] = [
            "POST tenants/reload": .keys,
            "POST tenants/{tenant}/rooms": .rooms,
            "POST tenants/{tenant}/rooms/{room}/extend": .rooms,
            "POST tenants/{tenant}/rooms/{room}/dissolve": .rooms,
            "POST tenants/{tenant}/rooms/{room}/members/{account}/kick": .moderation,
            "POST tenants/{tenant}/rooms/{room}/bans": .moderation,
            "DELETE tenants/{tenant}/rooms/{room}/bans/{ban}": .moderation,
            "POST tenants/{tenant}/rooms/{room}/mutes": .moderation,
            "DELETE tenants/{tenant}/rooms/{room}/mutes/{mute}": .moderation,
            "POST tenants/{tenant}/bans": .moderation,
            "DELETE tenants/{tenant}/bans/{ban}": .moderation,
            "POST tenants/{tenant}/accounts/{accid}/sessions/revoke": .moderation,
            "POST tenants/{tenant}/outbox/{entry}/retry": .webhooks,
            "POST tenants/{tenant}/outbox/replay": .webhooks,
            "POST tenants/{tenant}/webhooks/{endpoint}/test": .webhooks,
            "GET tenants/{tenant}/keys": .keys,
            "POST tenants/{tenant}/keys": .keys,
            "DELETE tenants/{tenant}/keys/{keyId}": .keys,
        ]
        let document = try #require(JSONValue.parse(AdminContract.document(plugins: [])))
        let paths = try #require(document["paths"]?.object)
        var seen: Set<String> = []
        for (path, operations) in paths where path.hasPrefix("/admin/v1/") && path != "/admin/v1/openapi.json" {
            let below = String(path.dropFirst("/admin/v1/".count))
            for method in (operations.object ?? [:]).keys {
                let name = "\(method.uppercased()) \(below)"
                let scope = AdminScope.required(method: HTTPRequest.Method(method.uppercased())!, path: below)
                let wanted = expected[name] ?? (method == "get" ? .read : nil)
                #expect(wanted != nil, "\(name) has no scope decided in this test")
                #expect(scope == wanted, "\(name) needs \(scope.rawValue), the table says \(wanted?.rawValue ?? "none")")
                seen.insert(name)
            }
        }
        #expect(Set(expected.keys).subtracting(seen).isEmpty, "in the table but not the contract: \(Set(expected.keys).subtracting(seen))")
    }

    /// A key reaches only its scopes' routes, and is answered 403 naming
    /// the scope elsewhere; it grants no scope it does not hold.
    @Test func aKeyOutsideItsScopesIsRefusedNamingTheScope() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let reader = try await Self.make(http, fixture, scopes: ["read"], by: fixture.key(0))
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: reader.key).status == .ok)
            let create = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: reader.key, json: #"{"plugin":"test-rooms","name":"R","owner":"o"}"#)
            #expect(create.status == .forbidden && create.json["detail"]?.string?.contains("rooms") == true, "\(create.text)")
            #expect(try await http.get("/admin/v1/tenants/\(fixture.id(1))/rooms", key: reader.key).status == .forbidden, "another tenant")
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/keys", key: reader.key).status == .forbidden, "listing keys is the keys scope")

            let roomsKey = try await Self.make(http, fixture, scopes: ["rooms"], by: fixture.operatorKey, label: "deploy@ci")
            let made = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: roomsKey.key, json: #"{"plugin":"test-rooms","name":"R","owner":"o"}"#)
            #expect(made.status == .created, "\(made.text)")
            let read = try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: roomsKey.key)
            #expect(read.status == .forbidden && read.json["detail"]?.string?.contains("read") == true)
            let roomID = try #require(made.json["id"]?.int64)
            let kick = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(roomID)/members/o/kick", key: roomsKey.key, json: "{}")
            #expect(kick.status == .forbidden && kick.json["detail"]?.string?.contains("moderation") == true, "\(kick.text)")

            let me = try await http.get("/admin/v1/me", key: reader.key)
            #expect(me.json["actor"]?.string == "key:\(reader.id) (ops bot)" && me.json["tenant"]?.string == tenant
                    && me.json["scopes"] == .array([.string("read")]), "\(me.text)")
            let operatorMe = try await http.get("/admin/v1/me", key: fixture.operatorKey)
            #expect(operatorMe.json["actor"]?.string == "operator" && operatorMe.json["tenant"] == nil
                    && operatorMe.json["scopes"] == .array(AdminScope.allCases.sorted().map { .string($0.rawValue) }), "\(operatorMe.text)")

            let keyManager = try await Self.make(http, fixture, scopes: ["keys"], by: fixture.key(0))
            let escalation = try await http.post("/admin/v1/tenants/\(tenant)/keys", key: keyManager.key, json: #"{"label":"x","scopes":["moderation"]}"#)
            #expect(escalation.status == .forbidden, "a keys key grants only the keys scope: \(escalation.text)")
            let bad = try await http.post("/admin/v1/tenants/\(tenant)/keys", key: keyManager.key, json: #"{"label":"x","scopes":["everything"]}"#)
            #expect(bad.status == .badRequest && bad.json["field"]?.string == "scopes[0]", "\(bad.text)")
            // schemathesis (ST201): more scopes than the contract's maxItems was taken.
            let six = try await http.post("/admin/v1/tenants/\(tenant)/keys", key: keyManager.key, json: #"{"label":"x","scopes":["keys","keys","keys","keys","keys","keys"]}"#)
            #expect(six.status == .badRequest && six.json["field"]?.string == "scopes", "\(six.text)")
            let count = try await fixture.database.query("SELECT count(*)::int FROM admin_keys WHERE tenant_id = \(tenant)").decode(Int.self).first
            #expect(count == 3, "refused makes wrote nothing")
        }
    }

    /// Only the key's SHA-256 is stored; the list never shows the key; the
    /// audit log names the key that acted by id and label.
    @Test func keysAreStoredHashedListedWithoutThemAndNamedInTheAudit() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let made = try await Self.make(http, fixture, scopes: ["rooms", "read"], by: fixture.key(0), label: "deploy@ci")
            let stored = try await fixture.database.query("""
                SELECT key_hash, row_to_json(k)::text FROM admin_keys k WHERE tenant_id = \(tenant) AND key_id = \(made.id)
                """).decode((String, String).self)
            #expect(stored.first?.0 == Secrets.sha256Hex(made.key))
            #expect(stored.first?.1.contains(made.key) == false, "the key is in no column")
            let listed = try await http.get("/admin/v1/tenants/\(tenant)/keys", key: fixture.key(0))
            #expect(listed.status == .ok && !listed.text.contains(made.key) && listed.text.contains(made.id))
            #expect(Self.first(listed)?["scopes"] == .array([.string("read"), .string("rooms")]))
            _ = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: made.key, json: #"{"plugin":"test-rooms","name":"R","owner":"o"}"#)
            let audit = try await http.get("/admin/v1/tenants/\(tenant)/audit?action=room.create", key: fixture.key(0))
            #expect(Self.first(audit)?["actor"]?.string == "key:\(made.id) (deploy@ci)", "\(audit.text)")
            let creation = try await http.get("/admin/v1/tenants/\(tenant)/audit?action=key.create", key: fixture.key(0))
            #expect(Self.first(creation)?["target"]?.string == "key:\(made.id)")
        }
    }

    /// Revoked on one instance, a key is refused by the other on its next
    /// request, every time (each request reads its key's row); an expired
    /// key likewise.
    @Test func aRevokedOrExpiredKeyIsRefusedOnEveryInstanceAtOnce() async throws {
        let clock = ManualClock()
        let fixture = try await ServerFixture(clock: clock)
        let tenant = fixture.id(0)
        try await OutboxWakeTests.live(try fixture.server()) { other in
            try await fixture.live { http in
                // 8 rounds: each refused key counts against this address's
                // failed keys (10 at once, then one a second).
                for round in 0..<8 {
                    let made = try await Self.make(http, fixture, scopes: ["read"], by: fixture.key(0), label: "round \(round)")
                    let before = try await other.get("/admin/v1/tenants/\(tenant)/rooms", key: made.key)
                    #expect(before.status == .ok, "round \(round): \(before.status) \(before.text)")
                    let revoked = try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(made.id)", key: fixture.key(0))
                    #expect(revoked.status == .ok && revoked.json["revokedAt"] != nil)
                    let after = try await other.get("/admin/v1/tenants/\(tenant)/rooms", key: made.key)
                    #expect(after.status == .unauthorized, "round \(round): \(after.status) \(after.text)")
                }
                let expiring = try await Self.make(http, fixture, scopes: ["read"], by: fixture.key(0), expiresIn: 60)
                #expect(try await other.get("/admin/v1/tenants/\(tenant)/rooms", key: expiring.key).status == .ok)
                clock.advance(by: 61)
                #expect(try await other.get("/admin/v1/tenants/\(tenant)/rooms", key: expiring.key).status == .unauthorized)
                #expect(try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/nope", key: fixture.key(0)).status == .notFound)
            }
        }
    }
    /// A key revokes only keys whose every scope it holds (a `keys`-only
    /// key could otherwise take the tenant's moderation keys away), and a
    /// second revocation answers the key as it is and writes no audit row.
    @Test func aKeyRevokesOnlyKeysWithinItsScopesAndOnlyOnce() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let moderator = try await Self.make(http, fixture, scopes: ["moderation", "read"], by: fixture.key(0), label: "mods")
            let keyManager = try await Self.make(http, fixture, scopes: ["keys"], by: fixture.key(0), label: "keeper")
            let peer = try await Self.make(http, fixture, scopes: ["keys"], by: fixture.key(0), label: "peer")
            let refused = try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(moderator.id)", key: keyManager.key)
            #expect(refused.status == .forbidden && refused.json["detail"]?.string?.contains("moderation") == true, "\(refused.text)")
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/rooms", key: moderator.key).status == .ok, "the moderation key still works")
            #expect(try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(peer.id)", key: keyManager.key).status == .ok,
                    "a key within its scopes is revoked")
            let first = try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(moderator.id)", key: fixture.key(0))
            let again = try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(moderator.id)", key: fixture.key(0))
            #expect(first.status == .ok && again.status == .ok && first.json["revokedAt"] == again.json["revokedAt"], "\(again.text)")
            let rows = try await fixture.database.query("""
                SELECT target FROM audit_log WHERE tenant_id = \(tenant) AND action = 'key.revoke' ORDER BY target
                """).decode(String.self)
            #expect(rows.sorted() == ["key:\(moderator.id)", "key:\(peer.id)"].sorted(), "one row per revocation: \(rows)")
        }
    }

    /// Eight revocations of one key at once, on two instances: PostgreSQL's
    /// row lock (taken in its own statement) decides one winner; every
    /// answer is the key as revoked, with one time, and one audit row.
    @Test func revocationsOfOneKeyAtOnceWriteOneAuditRow() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await OutboxWakeTests.live(try fixture.server()) { other in
            try await fixture.live { http in
                let target = try await Self.make(http, fixture, scopes: ["read"], by: fixture.key(0), label: "contested")
                let answers = try await withThrowingTaskGroup(of: HTTP.Answer.self) { group in
                    for index in 0..<8 {
                        let client = index.isMultiple(of: 2) ? http : other
                        group.addTask { try await client.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(target.id)", key: fixture.key(0)) }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(answers.allSatisfy { $0.status == .ok }, "\(answers.map(\.text))")
                #expect(Set(answers.compactMap { $0.json["revokedAt"]?.string }).count == 1, "one revocation time: \(answers.map(\.text))")
                let rows = try await fixture.database.query("""
                    SELECT count(*)::int FROM audit_log WHERE tenant_id = \(tenant) AND action = 'key.revoke' AND target = \("key:\(target.id)")
                    """).decode(Int.self).first
                #expect(rows == 1, "one audit row for one revocation, not \(rows ?? 0)")
            }
        }
    }
    /// #44's measure: 100 keys, each revoked on one instance, then used on
    /// the other. Every first request after the revocation is refused
    /// (each request reads its key's row: nothing to propagate), and the
    /// time from sending the revocation to that refusal is within 1 s at
    /// the 99th percentile. The refusals come from 20 addresses, 5 each:
    /// an address's failed keys are throttled past 10, a budget each of two
    /// instances holds half of.
    @Test func aHundredRevocationsAreRefusedOnTheOtherInstanceAtOnce() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        let elapsed = try await OutboxWakeTests.live(try fixture.server()) { other in
            let port = try #require(other.client.port)
            return try await fixture.live { http in
                var elapsed: [Duration] = []
                for round in 0..<100 {
                    let made = try await Self.make(http, fixture, scopes: ["read"], by: fixture.key(0), label: "round \(round)")
                    #expect(try await other.get("/admin/v1/tenants/\(tenant)/rooms", key: made.key).status == .ok)
                    let sent = ContinuousClock.now
                    let revoked = try await http.request(.delete, "/admin/v1/tenants/\(tenant)/keys/\(made.id)", key: fixture.key(0))
                    #expect(revoked.status == .ok)
                    let after = try await AddressedHTTP(port: port, from: "127.0.0.\(2 + round / 5)")
                        .request("GET", "/admin/v1/tenants/\(tenant)/rooms", headers: ["Authorization": "Bearer \(made.key)"])
                    elapsed.append(ContinuousClock.now - sent)
                    #expect(after.status == 401, "round \(round): the first request after the revocation answered \(after.status)")
                }
                return elapsed.sorted()
            }
        }
        let p99 = elapsed[98]
        #expect(p99 < .seconds(1), "revocation to refusal on the other instance, p99 \(p99) (max \(elapsed[99]))")
    }
}

import Foundation
import HTTPTypes
import Logging
import PostgresNIO
import RoomCore
import RoomServer
import RoomTestSupport
import Testing

/// #29, item 5: one audit row per privileged act, in the act's transaction;
/// rows nobody holding the server's role can change or delete before their
/// time; each tenant admin sees only its own. (`AdminContractTests` checks
/// that every documented admin write leaves exactly one row, and a refusal none.)
@Suite struct AuditLogTests {
    static func items(_ answer: HTTP.Answer) -> [JSONValue] {
        if case .array(let items)? = answer.json["items"] { return items }
        return []
    }

    @Test func anActIsRecordedWithItsKeysFingerprintRequestAndAddressNeverTheKey() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let created = try await http.request(.post, "/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(0),
                                                 json: #"{"plugin":"test-rooms","name":"audited","owner":"olga"}"#,
                                                 headers: [HTTPField.Name("X-Request-Id")!: "req-42"])
            #expect(created.status == .created)
            let room = try #require(created.json["id"]?.int64)
            let kicked = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/members/pete/kick", key: fixture.operatorKey,
                                             json: #"{"durationSeconds":60,"reason":"spam"}"#)
            #expect(kicked.status == .ok)
            let generated = try #require(kicked.headers[HTTPField.Name("X-Request-Id")!], "the server drew a request id")

            let page = try await http.get("/admin/v1/tenants/\(tenant)/audit", key: fixture.key(0))
            #expect(page.status == .ok)
            let rows = Self.items(page)
            #expect(rows.map { $0["action"]?.string } == ["member.kick", "room.create"], "newest first: \(rows)")
            let kick = rows[0], create = rows[1]
            // #41: an HMAC under the server's secret, not a bare SHA-256 anyone can test guesses against.
            let secret = Roomkeeper.fingerprintSecret(try fixture.server().options)
            #expect(create["actor"]?.string == "tenant-admin" && create["keyFingerprint"]?.string == AuditCaller.fingerprint(ofKey: fixture.key(0), secret: secret))
            #expect(create["keyFingerprint"]?.string != String(Secrets.sha256Hex(fixture.key(0)).prefix(16)))
            #expect(create["requestId"]?.string == "req-42" && create["clientAddress"]?.string == "127.0.0.1")
            #expect(create["target"]?.string == "room:\(room)" && create["detail"]?["plugin"]?.string == "test-rooms")
            // #41: the operator's rows tell a tenant what was done, not with which key or from where.
            #expect(kick["actor"]?.string == "operator" && kick["keyFingerprint"] == .null && kick["clientAddress"] == .null, "\(kick)")
            let operatorsView = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit", key: fixture.operatorKey))
            #expect(operatorsView.first?["keyFingerprint"]?.string == AuditCaller.fingerprint(ofKey: fixture.operatorKey, secret: secret)
                    && operatorsView.first?["clientAddress"]?.string == "127.0.0.1", "the operator sees its own")
            #expect(kick["target"]?.string == "room:\(room)/account:pete" && kick["outcome"]?.string == "not a member")
            #expect(kick["requestId"]?.string == generated && kick["detail"]?["reason"]?.string == "spam" && kick["detail"]?["ban"]?.string != nil)
            // Neither key is anywhere in the log.
            let text = try await fixture.database.query("""
                SELECT coalesce(string_agg(audit_log::text, ' '), '') FROM audit_log WHERE tenant_id = \(tenant)
                """).decode(String.self).first ?? ""
            #expect(!text.contains(fixture.key(0)) && !text.contains(fixture.operatorKey) && text.contains("member.kick"))

            // Filters, and following the log with `after`.
            let kicks = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit?action=member.kick", key: fixture.key(0)))
            #expect(kicks.count == 1 && kicks[0]["id"] == kick["id"])
            let byOperator = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit?actor=operator", key: fixture.key(0)))
            #expect(byOperator.map { $0["action"]?.string } == ["member.kick"])
            let byKey = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit?actor=\(AuditCaller.fingerprint(ofKey: fixture.key(0), secret: secret))",
                                                      key: fixture.key(0)))
            #expect(byKey.map { $0["action"]?.string } == ["room.create"])
            let kickID = try #require(kick["id"]?.string)
            let range = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit?after=0&before=\(kickID)", key: fixture.key(0)))
            #expect(range.map { $0["action"]?.string } == ["room.create"], "after and before: the rows between")
            let first = try await http.get("/admin/v1/tenants/\(tenant)/audit?after=0&limit=1", key: fixture.key(0))
            #expect(Self.items(first).map { $0["action"]?.string } == ["room.create"])
            let cursor = try #require(first.json["nextCursor"]?.string)
            let second = try await http.get("/admin/v1/tenants/\(tenant)/audit?after=\(cursor)", key: fixture.key(0))
            #expect(Self.items(second).map { $0["action"]?.string } == ["member.kick"])
            let caughtUp = try await http.get("/admin/v1/tenants/\(tenant)/audit?after=\(second.json["nextCursor"]?.string ?? "")", key: fixture.key(0))
            #expect(Self.items(caughtUp).isEmpty && caughtUp.json["nextCursor"] == second.json["nextCursor"], "a poller keeps its cursor")
            let dissolved = try await http.post("/admin/v1/tenants/\(tenant)/rooms/\(room)/dissolve", key: fixture.key(0))
            #expect(dissolved.status == .ok)
            let after = Self.items(try await http.get("/admin/v1/tenants/\(tenant)/audit?after=\(second.json["nextCursor"]?.string ?? "")",
                                                      key: fixture.key(0)))
            #expect(after.map { $0["action"]?.string } == ["room.dissolve"], "the poller sees the next act")
        }
    }

    @Test func aTenantAdminSeesOnlyItsTenantsRowsAndTheOperatorSeesAll() async throws {
        let fixture = try await ServerFixture()
        let (zero, one) = (fixture.id(0), fixture.id(1))
        try await fixture.live { http in
            for index in 0...1 {
                let banned = try await http.post("/admin/v1/tenants/\(fixture.id(index))/bans", key: fixture.key(index), json: #"{"account":"mallory"}"#)
                #expect(banned.status == .created)
            }
            #expect(try await http.get("/admin/v1/tenants/\(one)/audit", key: fixture.key(0)).status == .forbidden)
            #expect(try await http.get("/admin/v1/audit", key: fixture.key(0)).status == .forbidden, "the cross-tenant view is the operator's")
            let own = Self.items(try await http.get("/admin/v1/tenants/\(zero)/audit", key: fixture.key(0)))
            #expect(own.count == 1 && own[0]["tenant"]?.string == zero && own[0]["action"]?.string == "tenant.ban")
            let reload = try await http.post("/admin/v1/tenants/reload", key: fixture.operatorKey)
            #expect(reload.status == .ok)
            let all = Self.items(try await http.get("/admin/v1/audit?limit=200", key: fixture.operatorKey))
            let tenantsSeen = Set(all.compactMap { $0["tenant"]?.string })
            #expect(tenantsSeen.isSuperset(of: [zero, one]), "the operator sees every tenant's rows")
            #expect(all.contains { $0["action"]?.string == "tenants.reload" && $0["tenant"] == .null && $0["actor"]?.string == "operator" })
            let narrowed = Self.items(try await http.get("/admin/v1/audit?tenant=\(one)", key: fixture.operatorKey))
            #expect(narrowed.count == 1 && narrowed[0]["tenant"]?.string == one)
            // Bad input: a clear 400 naming the field.
            for (query, field) in [("after=x", "after"), ("before=-1", "before"), ("limit=0", "limit"), ("action=", "action")] {
                let answer = try await http.get("/admin/v1/tenants/\(zero)/audit?\(query)", key: fixture.key(0))
                #expect(answer.status == .badRequest && answer.json["field"]?.string == field, "\(query): \(answer.text)")
            }
        }
    }

    @Test func theServersRoleCannotChangeOrDeleteARowBeforeItsTime() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let banned = try await http.post("/admin/v1/tenants/\(tenant)/bans", key: fixture.operatorKey, json: #"{"account":"eve"}"#)
            #expect(banned.status == .created)
        }
        // The same role and connection string the server uses.
        for statement: PostgresQuery in [
            "UPDATE audit_log SET outcome = 'nothing happened' WHERE tenant_id = \(tenant)",
            "DELETE FROM audit_log WHERE tenant_id = \(tenant)",
            "TRUNCATE audit_log",
        ] {
            await #expect(throws: (any Error).self, "\(statement.sql) is refused") { try await fixture.database.query(statement) }
        }
        let unchanged = try await fixture.database.query("SELECT count(*)::int FROM audit_log WHERE tenant_id = \(tenant) AND outcome = 'ok'")
            .decode(Int.self).first
        #expect(unchanged == 1, "the row is as written")

        // Past its keep_until, retention deletes it (and only it).
        let past = Date().addingTimeInterval(-3 * 86_400)
        try await fixture.database.query("""
            INSERT INTO audit_log (tenant_id, at, keep_until, actor, action, target, outcome)
            VALUES (\(tenant), \(past), \(past.addingTimeInterval(3_600)), 'operator', 'room.create', 'room:1', 'ok')
            """)
        let purger = RetentionPurger(database: fixture.database, clock: SystemClock(), tenants: { [] }, logger: Logger(label: "audit-retention"))
        try await purger.purgeOnce()
        let left = try await fixture.database.query("SELECT action FROM audit_log WHERE tenant_id = \(tenant)").decode(String.self)
        #expect(left == ["tenant.ban"], "the row past its time went; the fresh one stayed: \(left)")
    }
}

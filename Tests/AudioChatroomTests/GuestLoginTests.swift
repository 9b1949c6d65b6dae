import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// A guest login writes its account and its first session in one statement:
/// in ops/chaos a failover came between the two statements it used to be,
/// the session's insert found no account and the login answered 500. Here a
/// trigger refuses the session instead.
@Suite struct GuestLoginTests {
    @Test func aGuestWhoseSessionCannotBeWrittenLeavesNoAccount() async throws {
        let fixture = try await AudioChatroomFixture()
        let tenant = fixture.server.id(0)
        let database = fixture.server.database
        let function = "refuse_sessions_" + String(uniqueID("").lowercased().filter { $0.isLetter || $0.isNumber })
        try await database.query("""
            CREATE FUNCTION \(unescaped: function)() RETURNS trigger LANGUAGE plpgsql AS $$
            BEGIN IF NEW.tenant_id = '\(unescaped: tenant)' THEN RAISE EXCEPTION 'sessions refused'; END IF; RETURN NEW; END $$
            """)
        try await database.query("CREATE TRIGGER \(unescaped: function) BEFORE INSERT ON sessions FOR EACH ROW EXECUTE FUNCTION \(unescaped: function)()")
        let refused: Result<JSONValue, any Error>
        do {
            refused = .success(try await fixture.server.live { http in try await http.form("\(fixture.base())/user/get", "") })
        } catch {
            refused = .failure(error)
        }
        try await database.query("DROP TRIGGER \(unescaped: function) ON sessions")
        try await database.query("DROP FUNCTION \(unescaped: function)()")

        let answer = try refused.get()
        #expect(answer["code"] != .number(200) && answer["data"]?["sid"] == nil, "the login fails: \(answer)")
        let accounts = try await database.query("SELECT count(*)::int FROM accounts WHERE tenant_id = \(tenant)")
        #expect(try accounts.decode(Int.self).first == 0, "no account is left without its session")

        try await fixture.server.live { http in
            let login = try await http.form("\(fixture.base())/user/get", "")
            let sid = try #require(login["data"]?["sid"]?.string)
            let created = try await http.form("\(fixture.base())/room/create", "sid=\(sid)&roomName=After")
            #expect(created["code"] == .number(200), "a login with its session works: \(created)")
        }
    }
}

import Foundation
import MusicLesson
import PluginConformance
import RoomCore
import RoomProviders
import RoomTestSupport
import NIOWebSocket
import Testing

/// #27: the music-lesson app logs in to IM with its password's MD5, which a
/// dictionary guesses; the server keeps it slow to crack, limits guesses at
/// both doors (`/user/check` and the local IM login), and renews it.
@Suite struct LessonLoginTests {
    func register(_ http: HTTP, _ fixture: LessonFixture, _ accid: String, password: String = md5("pw")) async throws {
        let reg = try await http.form("\(fixture.base())/user/reg", "accid=\(accid)&nickname=Stu&password=\(password)")
        #expect(reg["code"] == .number(200))
    }

    func check(_ http: HTTP, _ fixture: LessonFixture, _ accid: String, password: String) async throws -> JSONValue {
        try await http.form("\(fixture.base())/user/check", "accid=\(accid)&nickname=Stu&password=\(password)")
    }

    func logsIn(port: Int, _ fixture: LessonFixture, _ accid: String, token: String) async throws -> Bool {
        let client = IMTestClient(port: port, tenant: fixture.server.id(0), accid: accid, token: token)
        defer { Task { _ = try? await client.close() } }
        return (try? await client.next("ready"))?["accid"]?.string == accid
    }

    func refusedLogin(port: Int, _ fixture: LessonFixture, _ accid: String) async throws -> WebSocketErrorCode? {
        try await IMTestClient.refusal(port: port, tenant: fixture.server.id(0), accid: accid, token: md5("pw"))?.closeCode
    }

    @Test func theIMTokenTheAppChoseIsStoredAsASaltedSlowHashAndStillLogsIn() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID()
            try await register(http, fixture, student)
            let stored = try await fixture.server.database.query("""
                SELECT token_hash FROM im_accounts WHERE tenant_id = \(fixture.server.id(0)) AND accid = \(student)
                """).decode(String.self).first
            #expect(stored?.hasPrefix("$2b$10$") == true, "bcrypt at cost 10")
            #expect(stored != Secrets.sha256Hex(md5("pw")), "not the MD5's bare SHA-256, which a dictionary reverses")
            #expect(try await logsIn(port: try #require(http.client.port), fixture, student, token: md5("pw")))
        }
    }

    @Test func wrongPasswordsAtUserCheckMeetAWallPerAccount() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID(), other = "o" + uniqueID()
            try await register(http, fixture, student)
            try await register(http, fixture, other)
            for guess in 0..<FailedLogins.perAccount {
                let wrong = try await check(http, fixture, student, password: md5("guess\(guess)"))
                #expect(wrong["code"] != .number(200))
            }
            let walled = try await check(http, fixture, student, password: md5("pw"))
            #expect(walled["code"] == .number(416), "past 10 failures even the right password waits: \(walled)")
            #expect(walled["msg"]?.string?.contains("failed logins") == true)
            let neighbour = try await check(http, fixture, other, password: md5("pw"))
            #expect(neighbour["code"] == .number(200), "another account from the same address still logs in")
            // #41: the wall is the guesser's address, not the account: its
            // owner, elsewhere, still logs in with the right password.
            let owner = AddressedHTTP(port: try #require(http.client.port), from: "127.0.0.2")
            let elsewhere = try await owner.form("\(fixture.base())/user/check", "accid=\(student)&nickname=Stu&password=\(md5("pw"))")
            #expect(elsewhere.json["code"] == .number(200), "the right password from an address without failures: \(elsewhere.text)")
            let wrongThere = try await owner.form("\(fixture.base())/user/check", "accid=\(student)&nickname=Stu&password=\(md5("nope"))")
            #expect(wrongThere.json["code"] != .number(200) && wrongThere.json["code"] != .number(416), "one failure there is counted, not walled")
        }
    }

    @Test func guessesAtTheLocalIMLoginMeetAWallPerAccountAndAddress() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let student = "s" + uniqueID(), other = "o" + uniqueID()
            try await register(http, fixture, student)
            try await register(http, fixture, other)
            for guess in 0..<FailedLogins.perAccount {
                let refused = try await IMTestClient.refusal(port: port, tenant: fixture.server.id(0), accid: student, token: md5("guess\(guess)"))
                #expect(refused?.closeCode == .unknown(4001))
            }
            let walled = try await IMTestClient.refusal(port: port, tenant: fixture.server.id(0), accid: student, token: md5("pw"))
            #expect(walled?.closeCode == .unknown(4029), "the right token waits out the window")
            #expect(walled?.reason?.contains("failed logins") == true)
            #expect(try await logsIn(port: port, fixture, other, token: md5("pw")), "another account from the address is not walled yet")
            // The address's own wall: 50 failures over any accounts.
            for guess in FailedLogins.perAccount..<FailedLogins.perAddress {
                _ = try await IMTestClient.refusal(port: port, tenant: fixture.server.id(0), accid: "x\(guess)", token: "wrong")
            }
            let addressWalled = try await IMTestClient.refusal(port: port, tenant: fixture.server.id(0), accid: other, token: md5("pw"))
            #expect(addressWalled?.closeCode == .unknown(4029), "50 failures from one address wall every account from it")
        }
    }

    @Test func theRightPasswordRenewsTheIMTokenAfterItsWeekAndAfterARevoke() async throws {
        let clock = ManualClock()
        let fixture = try await LessonFixture(clock: clock)
        try await fixture.server.live { http in
            let port = try #require(http.client.port)
            let student = "s" + uniqueID()
            try await register(http, fixture, student)
            clock.advance(by: 8 * 86_400)
            #expect(try await refusedLogin(port: port, fixture, student) == .unknown(4001), "the token of /user/reg lapsed after 7 days")
            #expect(try await check(http, fixture, student, password: md5("pw"))["code"] == .number(200))
            #expect(try await logsIn(port: port, fixture, student, token: md5("pw")), "/user/check renewed it")

            let revoked = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/\(student)/sessions/revoke", key: fixture.server.key(0))
            #expect(revoked.status == .ok)
            #expect(try await refusedLogin(port: port, fixture, student) == .unknown(4001), "revoked")
            #expect(try await check(http, fixture, student, password: md5("pw"))["code"] == .number(200))
            #expect(try await logsIn(port: port, fixture, student, token: md5("pw")), "logging in again with the password lifts the revoke")
        }
    }

    /// #41: a login bcrypted the password twice: once to check it, once to
    /// store the IM token (the same MD5). The hash that verified it is kept.
    @Test func theHashThatVerifiedThePasswordIsTheIMTokensHash() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID()
            try await register(http, fixture, student)
            #expect(try await check(http, fixture, student, password: md5("pw"))["code"] == .number(200))
            let hashes = try await fixture.server.database.query("""
                SELECT a.password_hash, i.token_hash FROM accounts a JOIN im_accounts i ON i.tenant_id = a.tenant_id AND i.accid = a.accid
                WHERE a.tenant_id = \(fixture.server.id(0)) AND a.accid = \(student)
                """).decode((String, String).self)
            #expect(hashes.count == 1 && hashes.first?.0 == hashes.first?.1, "no second bcrypt of the same MD5")
            #expect(try await logsIn(port: try #require(http.client.port), fixture, student, token: md5("pw")), "and it logs in to IM")
        }
    }

    /// #41: right passwords looped from one address are limited too (each
    /// costs a bcrypt); the account's owner elsewhere is not.
    @Test func rightPasswordsLoopedFromOneAddressAreLimited() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID()
            try await register(http, fixture, student)
            for _ in 0..<FailedLogins.attemptsPerMinute {
                #expect(try await check(http, fixture, student, password: md5("pw"))["code"] == .number(200))
            }
            let looped = try await check(http, fixture, student, password: md5("pw"))
            #expect(looped["code"] == .number(416), "past 20 a minute from one address: \(looped)")
            let owner = AddressedHTTP(port: try #require(http.client.port), from: "127.0.0.2")
            let elsewhere = try await owner.form("\(fixture.base())/user/check", "accid=\(student)&nickname=Stu&password=\(md5("pw"))")
            #expect(elsewhere.json["code"] == .number(200), "\(elsewhere.text)")
        }
    }

    /// #41: a purged guest's id is retired so no new guest inherits what
    /// still names it; registering it as a named account did.
    @Test func aRetiredIdIsNotRegisteredAgain() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let retired = "r" + uniqueID()
            try await fixture.server.database.query("""
                INSERT INTO retired_accounts (tenant_id, accid, retired_at) VALUES (\(fixture.server.id(0)), \(retired), now())
                """)
            let reg = try await http.form("\(fixture.base())/user/reg", "accid=\(retired)&nickname=Stu&password=\(md5("pw"))")
            #expect(reg["code"] == .number(901), "taken, as a live account's id is: \(reg)")
        }
    }

    /// #41: with `accidAsSid` there is no session for a tenant ban to revoke:
    /// a banned student still booked lessons and read the teacher's password.
    @Test func aTenantBannedAccountActsByItsAccidNoMore() async throws {
        let fixture = try await LessonFixture()
        try await fixture.server.live { http in
            let student = "s" + uniqueID()
            try await register(http, fixture, student)
            #expect(data(try await http.form("\(fixture.base())/room/create", "accid=\(student)")) != nil, "booked before the ban")
            let ban = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/bans", key: fixture.server.operatorKey, json: #"{"account":"\#(student)"}"#)
            #expect(ban.status == .created, "\(ban.text)")
            let query = try await http.form("\(fixture.base())/room/query", "accid=\(student)")
            #expect(query["code"] == .number(401) && !query.jsonText.contains("teacherPassword"), "\(query)")
            #expect(try await http.form("\(fixture.base())/room/create", "accid=\(student)")["code"] == .number(401))
        }
    }
}

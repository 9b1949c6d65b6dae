import Foundation
import HTTPTypes
import RoomCore
import RoomTestSupport
import Testing

/// `/user/login`, `/user/refresh-token`, `/user/logout` and the Authorization
/// token: signed, expiring, revocable.
@Suite struct SealMicAccountTests {
    @Test func loginGivesAnAccountATokenAndAnIMToken() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let answer = try await client.call("/user/login", ["deviceId": "phone-1"], as: nil)
            #expect(answer["errCode"] == .number(0) && answer["errMsg"]?.string == "OK" && answer["errDetail"]?.string == "")
            let login = try #require(result(answer))
            let userID = try #require(login["userId"]?.string)
            let token = try #require(login["authorization"]?.string)
            #expect(login["userName"]?.string?.isEmpty == false)
            #expect(login["imToken"]?.string?.isEmpty == false)
            #expect(!token.hasPrefix("Bearer"))

            // Logging in again with the token keeps the account and the token.
            let again = try #require(result(try await client.call("/user/login", ["deviceId": "phone-1"], as: token)))
            #expect(again["userId"]?.string == userID && again["authorization"]?.string == token)

            let refreshed = try #require(result(try await client.call("/user/refresh-token", as: token)))
            #expect(refreshed.string?.isEmpty == false, "the result is the IM token itself")

            // Form bodies are accepted as well.
            let form = try await http.request(.post, "\(fixture.base())/user/login", form: "deviceId=phone-2").json
            #expect(result(form)?["userId"]?.string?.isEmpty == false)
        }
    }

    @Test func badLoginsAndBadTokensGetTheirErrCodes() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let missing = try await client.call("/user/login", [:], as: nil)
            #expect(errCode(missing) == 1 && missing["errMsg"]?.string?.contains("deviceId") == true)
            #expect(errCode(try await client.call("/user/login", ["deviceId": .string(String(repeating: "x", count: 129))], as: nil)) == 1)

            let user = try await client.login()
            #expect(errCode(try await client.call("/user/refresh-token", as: nil)) == 2)
            #expect(errCode(try await client.call("/user/refresh-token", as: "forged")) == 2)
            let parts = user.token.split(separator: ".").map(String.init)
            #expect(errCode(try await client.call("/user/refresh-token", as: "\(parts[0]).\(Int64(parts[1])! + 1).\(parts[2])")) == 2,
                    "an altered expiry breaks the signature")
            #expect(errCode(try await client.call("/room/list", as: "Bearer \(user.token)")) == 0, "a Bearer prefix is tolerated")

            // Another tenant's token is refused.
            let other = try await SealMicClient(http: http, base: fixture.base(1)).login()
            #expect(errCode(try await client.call("/room/list", as: other.token)) == 2)
        }
    }

    @Test func tokensExpire() async throws {
        let clock = ManualClock()
        let fixture = try await SealMicFixture(table: "[plugins.sealmic]\ntokenTTL = \"1h\"\n", clock: clock)
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let user = try await client.login()
            clock.advance(by: 3_599)
            #expect(errCode(try await client.call("/room/list", as: user.token)) == 0)
            clock.advance(by: 2)
            #expect(errCode(try await client.call("/room/list", as: user.token)) == 2)
        }
    }

    @Test func logoutAndAdminRevocationEndTokens() async throws {
        let fixture = try await SealMicFixture()
        try await fixture.server.live { http in
            let client = SealMicClient(http: http, base: fixture.base())
            let user = try await client.login()
            #expect(result(try await client.call("/user/logout", as: user.token)) == .bool(true))
            #expect(errCode(try await client.call("/room/list", as: user.token)) == 2)

            let other = try await client.login()
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/accounts/\(other.userId)/sessions/revoke"
            #expect(try await http.post(path, key: fixture.server.key(1)).status == .forbidden, "another tenant's key cannot revoke")
            #expect(errCode(try await client.call("/room/list", as: other.token)) == 0)
            let revoked = try await http.post(path, key: fixture.server.key(0))
            #expect(revoked.status == .ok && revoked.json["revoked"] == .number(1))
            #expect(errCode(try await client.call("/room/list", as: other.token)) == 2)
            #expect(try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/nobody/sessions/revoke", key: fixture.server.key(0)).status == .notFound)
            let nul = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/a%00b/sessions/revoke", key: fixture.server.key(0))
            #expect(nul.status == .badRequest && nul.json["field"]?.string == "accid", "a NUL, percent-encoded, is refused as the contract says")
            // Path segments are percent-decoded before they are checked and
            // looked up: 100 non-ASCII characters are 100, not 600 (schemathesis
            // had a valid id refused as too long).
            let long = String(repeating: "é", count: 100).addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? ""
            #expect(try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/\(long)/sessions/revoke", key: fixture.server.key(0)).status == .notFound)
            let third = try await client.login()
            let encoded = third.userId.unicodeScalars.map { String(format: "%%%02X", $0.value) }.joined()
            let byEncoded = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/accounts/\(encoded)/sessions/revoke", key: fixture.server.key(0))
            #expect(byEncoded.status == .ok && byEncoded.json["revoked"] == .number(1), "an id sent percent-encoded is the same account")
        }
    }
}

import Foundation
import PluginConformance
import RoomCore
import RoomTestSupport
import Testing

/// `/t/{tenant}/{plugin}/…`: routing, the NetEase envelope and the shipped apps' form quirks.
@Suite struct ClientRoutingTests {
    @Test func unknownTenantsPluginsAndRoutesAreClear404s() async throws {
        let fixture = try await ServerFixture(pluginTables: ["[plugins.test-rooms]\n", "[plugins]\n"])
        try await fixture.live { http in
            let unknownTenant = try await http.request(.post, "/t/nobody/test-rooms/room/create", form: "sid=a&name=x")
            #expect(unknownTenant.status == .notFound)
            #expect(unknownTenant.json["detail"]?.string == "no tenant nobody")
            let disabled = try await http.request(.post, "/t/\(fixture.id(1))/test-rooms/room/create", form: "sid=a&name=x")
            #expect(disabled.status == .notFound)
            #expect(disabled.json["detail"]?.string == "tenant \(fixture.id(1)) does not enable plugin test-rooms")
            let unknownRoute = try await http.request(.post, "/t/\(fixture.id(0))/test-rooms/no/such/route", form: "")
            #expect(unknownRoute.status == .notFound)
            #expect(try await http.request(.post, "/t/\(fixture.id(0))/no-plugin/room/create", form: "").status == .notFound)
        }
    }

    @Test func theShippedAppsQuirksAreTolerated() async throws {
        let fixture = try await ServerFixture(pluginTables: ["[plugins.test-rooms]\ngreeting = \"welcome\"\n"])
        let base = "/t/\(fixture.id(0))/test-rooms"
        try await fixture.live { http in
            // iOS: pairs joined with "&&" and a bare value without a key.
            let created = try await http.request(.post, "\(base)/room/create", form: "sid=alice&&name=Hall%20one&&orphan")
            #expect(created.status == .ok)
            #expect(created.json["code"]?.int64 == 200)
            #expect(created.json["data"]?["greeting"]?.string == "welcome", "the tenant's plugin settings reach the route")
            let id = try #require(created.json["data"]?["roomId"]?.int64)

            // JSON body with roomId as a string; query parameters.
            let joined = try await http.request(.post, "\(base)/room/join", json: #"{"sid":"bob","roomId":"\#(id)"}"#)
            #expect(joined.json == .object(["code": .number(200), "data": .object([:])]))
            let byQuery = try await http.request(.post, "\(base)/room/join?sid=carol&roomId=\(id)", form: "")
            #expect(byQuery.json["code"]?.int64 == 200)
            let plus = try await http.request(.post, "\(base)/room/create", form: "sid=dave&name=a+b")
            #expect(plus.json["code"]?.int64 == 200)
        }
    }

    @Test func refusalsUseTheWireCodesAndNameTheField() async throws {
        let fixture = try await ServerFixture()
        let base = "/t/\(fixture.id(0))/test-rooms"
        try await fixture.live { http in
            let missing = try await http.request(.post, "\(base)/room/create", form: "sid=alice")
            #expect(missing.status == .ok)
            #expect(missing.json == .object(["code": .number(400), "msg": .string("name is required")]))
            let notNumber = try await http.request(.post, "\(base)/room/join", form: "sid=a&roomId=twelve")
            #expect(notNumber.json["code"]?.int64 == 400)
            #expect(notNumber.json["msg"]?.string == "roomId must be an integer")
            let badJSON = try await http.request(.post, "\(base)/room/join", json: #"{"sid":"#)
            #expect(badJSON.json["msg"]?.string == "body must be a JSON object")
            // PostgreSQL text cannot hold NUL: refused by name before any query.
            let nul = try await http.request(.post, "\(base)/room/create", form: "sid=alice&name=a%00b")
            #expect(nul.json == .object(["code": .number(400), "msg": .string("name must not contain NUL characters")]))
            let nulJSON = try await http.request(.post, "\(base)/room/create", json: #"{"sid":"alice","name":"a\u0000b"}"#)
            #expect(nulJSON.json["msg"]?.string == "name must not contain NUL characters")

            #expect(try await http.request(.post, "\(base)/room/dissolve", form: "sid=a&roomId=999999999").json["code"]?.int64 == 804)
            let created = try await http.request(.post, "\(base)/room/create", form: "sid=alice&name=x")
            let id = try #require(created.json["data"]?["roomId"]?.int64)
            #expect(try await http.request(.post, "\(base)/room/dissolve", form: "sid=mallory&roomId=\(id)").json["code"]?.int64 == 403)
            #expect(try await http.request(.post, "\(base)/room/dissolve", form: "sid=alice&roomId=\(id)").json["code"]?.int64 == 200)
            #expect(try await http.request(.post, "\(base)/room/dissolve", form: "sid=alice&roomId=\(id)").json["code"]?.int64 == 801)
            #expect(try await http.request(.post, "\(base)/room/join", form: "sid=bob&roomId=\(id)").json["code"]?.int64 == 801)
        }
    }
}

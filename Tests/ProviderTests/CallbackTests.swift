import Crypto
import Foundation
import HTTPTypes
import RoomCore
import RoomTestSupport
import Testing

/// `/t/{tenant}/callbacks/{provider}`: a good signature updates membership or
/// stream state; a bad one gets 401 and changes nothing.
@Suite struct CallbackTests {
    static func md5(_ text: String) -> String { Insecure.MD5.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }
    static func sha1(_ text: String) -> String { Insecure.SHA1.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined() }

    @Test func netEaseCallbacksNeedTheirMD5AndCheckSum() async throws {
        let fixture = try await VendorTables.fixture(VendorTables.netease("http://127.0.0.1:9"))
        let state = ProviderStateStore(database: fixture.database)
        try await fixture.live { (http: HTTP) async throws -> Void in
            let path = "/t/\(fixture.id(0))/callbacks/netease"
            let body = #"{"eventType":"9","roomId":"70000001","accid":"ann","enterOrOut":"IN"}"#
            func headers(md5: String, checkSum: String? = nil, at time: Date = Date()) -> HTTPFields {
                let curTime = String(Int64(time.timeIntervalSince1970 * 1000))
                var fields = HTTPFields()
                fields[HTTPField.Name("AppKey")!] = FakeNetEase.appKey
                fields[HTTPField.Name("CurTime")!] = curTime
                fields[HTTPField.Name("MD5")!] = md5
                fields[HTTPField.Name("CheckSum")!] = checkSum ?? Self.sha1(FakeNetEase.appSecret + md5 + curTime)
                return fields
            }
            #expect(try await http.request(.post, path, json: body, headers: headers(md5: Self.md5(body), checkSum: "0" + String(repeating: "a", count: 39))).status == .unauthorized)
            #expect(try await http.request(.post, path, json: body, headers: headers(md5: Self.md5("{}"))).status == .unauthorized, "the MD5 is the body's")
            #expect(try await http.request(.post, path, json: body).status == .unauthorized, "unsigned")
            let stale = headers(md5: Self.md5(body), at: Date().addingTimeInterval(-600))
            #expect(try await http.request(.post, path, json: body, headers: stale).status == .unauthorized, "signed 10 minutes ago: outside the window")
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "netease", chatroom: "70000001").isEmpty, "refusals change nothing")

            #expect(try await http.request(.post, path, json: body, headers: headers(md5: Self.md5(body))).status == .ok)
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "netease", chatroom: "70000001") == ["ann"])
            let out = body.replacingOccurrences(of: "\"IN\"", with: "\"OUT\"")
            #expect(try await http.request(.post, path, json: out, headers: headers(md5: Self.md5(out))).status == .ok)
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "netease", chatroom: "70000001").isEmpty)
            // The other tenant has its own state and does not use Tencent.
            #expect(try await state.chatroomMembers(fixture.id(1), provider: "netease", chatroom: "70000001").isEmpty)
            #expect(try await http.request(.post, "/t/\(fixture.id(0))/callbacks/tencent", json: "{}").status == .notFound)
        }
    }

    @Test func rongCloudCallbacksAreSignedInTheQuery() async throws {
        let fixture = try await VendorTables.fixture(VendorTables.rongcloud("http://127.0.0.1:9", backup: "http://127.0.0.1:9"))
        let state = ProviderStateStore(database: fixture.database)
        try await fixture.live { (http: HTTP) async throws -> Void in
            func path(signature: String? = nil, at time: Date = Date()) -> String {
                let nonce = "12345", timestamp = String(Int64(time.timeIntervalSince1970 * 1000))
                let signature = signature ?? Self.sha1(FakeRongCloud.appSecret + nonce + timestamp)
                return "/t/\(fixture.id(0))/callbacks/rongcloud?appKey=\(FakeRongCloud.appKey)&nonce=\(nonce)&timestamp=\(timestamp)&signature=\(signature)"
            }
            let joined = #"[{"chatRoomId":"r1","userIds":["ann","bob"],"status":0,"type":1,"time":1700000000000}]"#
            #expect(try await http.request(.post, path(signature: Self.sha1("forged")), json: joined).status == .unauthorized)
            #expect(try await http.request(.post, path(at: Date().addingTimeInterval(-600)), json: joined).status == .unauthorized, "outside the window")
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "rongcloud", chatroom: "r1").isEmpty)
            #expect(try await http.request(.post, path(), json: joined).status == .ok)
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "rongcloud", chatroom: "r1") == ["ann", "bob"])
            let quit = #"[{"chatRoomId":"r1","userIds":["bob"],"status":0,"type":2,"time":1700000000001}]"#
            #expect(try await http.request(.post, path(), json: quit).status == .ok)
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "rongcloud", chatroom: "r1") == ["ann"])
            #expect(try await http.request(.post, path(), json: #"[{"chatRoomId":"r1","type":3}]"#).status == .ok)
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "rongcloud", chatroom: "r1").isEmpty, "destroyed: nobody is in")
            #expect(try await http.request(.post, path(), json: #"{"not":"an array"}"#).status == .badRequest)
            let nul = #"[{"chatRoomId":"r2","userIds":["a\u0000b"],"status":0,"type":1,"time":1}]"#
            #expect(try await http.request(.post, path(), json: nul).status == .badRequest, "an id PostgreSQL cannot store")
            #expect(try await state.chatroomMembers(fixture.id(0), provider: "rongcloud", chatroom: "r2").isEmpty)
            let huge = "[" + String(repeating: " ", count: 300 * 1024) + "]"
            #expect(try await http.request(.post, path(), json: huge).status == .contentTooLarge)
        }
    }

    @Test func tencentCallbacksNeedASignAndATimeNotPast() async throws {
        let fake = FakeTencent()
        try await fake.vendor.run { url in
        let fixture = try await VendorTables.fixture(VendorTables.tencent(url))
        let state = ProviderStateStore(database: fixture.database)
        try await fixture.live { (http: HTTP) async throws -> Void in
            let path = "/t/\(fixture.id(0))/callbacks/tencent"
            func body(_ type: Int, t: Int64, sign: String? = nil) -> String {
                #"{"event_type":\#(type),"stream_id":"s1","t":\#(t),"sign":"\#(sign ?? Self.md5(VendorSecrets.callbackKey + String(t)))"}"#
            }
            let later = Int64(Date().timeIntervalSince1970) + 600
            #expect(try await http.request(.post, path, json: body(1, t: later, sign: Self.md5("wrong" + String(later)))).status == .unauthorized)
            #expect(try await http.request(.post, path, json: body(1, t: Int64(Date().timeIntervalSince1970) - 60)).status == .unauthorized, "t has passed")
            #expect(try await state.stream(fixture.id(0), "s1") == nil, "refusals change nothing")

            let started = try await http.request(.post, path, json: body(1, t: later))
            #expect(started.status == .ok && started.json["code"] == .number(0))
            #expect(try await state.stream(fixture.id(0), "s1")?.live == true)
            // #16, finding 5: the sign covers only t, so a cut is believed only
            // when Tencent's API agrees the stream stopped.
            fake.publish("s1")
            #expect(try await http.request(.post, path, json: body(0, t: later - 1)).status == .ok)
            #expect(try await state.stream(fixture.id(0), "s1")?.live == true, "Tencent still lists it: a forged cut changes nothing")
            fake.stop("s1")
            #expect(try await http.request(.post, path, json: body(0, t: later)).status == .ok)
            #expect(try await state.stream(fixture.id(0), "s1")?.live == false)

            // A captured callback sent again is refused (on any instance: the
            // receipt is in PostgreSQL) and changes nothing.
            let replayed = try await http.request(.post, path, json: body(1, t: later))
            #expect(replayed.status == .conflict && replayed.json["code"]?.string == "callback_replayed")
            #expect(try await state.stream(fixture.id(0), "s1")?.live == false)
            let farAhead = Int64(Date().timeIntervalSince1970) + 86_400
            #expect(try await http.request(.post, path, json: body(1, t: farAhead)).status == .unauthorized, "a sign valid for a day is refused")
            #expect(try await state.stream(fixture.id(0), "s1")?.live == false)
        }
        }
    }

    @Test func aTencentCutThatCannotBeConfirmedIsRefusedForARetry() async throws {
        let fixture = try await VendorTables.fixture(VendorTables.tencent("http://127.0.0.1:9"))
        try await fixture.live { (http: HTTP) async throws -> Void in
            let t = String(Int64(Date().timeIntervalSince1970) + 600)
            let cut = #"{"event_type":0,"stream_id":"s2","t":\#(t),"sign":"\#(Self.md5(VendorSecrets.callbackKey + t))"}"#
            let answer = try await http.request(.post, "/t/\(fixture.id(0))/callbacks/tencent", json: cut)
            #expect(answer.status == .serviceUnavailable && answer.json["code"]?.string == "callback_unconfirmed")
            #expect(try await ProviderStateStore(database: fixture.database).stream(fixture.id(0), "s2") == nil, "nothing changed")
        }
    }
}

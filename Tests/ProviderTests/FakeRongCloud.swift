import Crypto
import Foundation
import HTTPTypes
import RoomCore
import Synchronization

/// RongCloud's server API as its server API documentation describes it (docs/providers.md): form bodies with
/// repeated keys, the Signature headers (seconds or milliseconds), HTTP 401
/// on a bad signature, `{"code":200,…}` answers.
final class FakeRongCloud: Sendable {
    static let appKey = "fake-rong-key"
    static let appSecret = "fake-rong-secret"

    static let parameters: [String: Set<String>] = [
        "/user/getToken.json": ["userId", "name", "portraitUri"],
        "/user/token/expire.json": ["userId", "time"],
        "/chatroom/create_new.json": ["chatroomId", "destroyType", "destroyTime"],
        "/chatroom/destroy.json": ["chatroomId"],
        "/chatroom/user/exist.json": ["chatroomId", "userId"],
        "/chatroom/user/query.json": ["chatroomId", "count", "order"],
        "/message/chatroom/publish.json": ["fromUserId", "toChatroomId", "objectName", "content", "isPersisted", "isIncludeSender"],
        "/message/private/publish.json": ["fromUserId", "toUserId", "objectName", "content"],
        "/chatroom/ban/add.json": ["chatroomId"],
        "/chatroom/ban/rollback.json": ["chatroomId"],
        "/chatroom/user/block/add.json": ["chatroomId", "userId", "minute"],
        "/chatroom/user/block/rollback.json": ["chatroomId", "userId"],
        "/chatroom/user/gag/add.json": ["chatroomId", "userId", "minute"],
        "/chatroom/user/gag/rollback.json": ["chatroomId", "userId"],
    ]

    struct State {
        var open: Set<String> = []
        var members: [String: Set<String>] = [:]
        /// userId → tokens issued before this (milliseconds) no longer work.
        var expiredBefore: [String: Int64] = [:]
        /// chatroom → blocked userId → minutes.
        var blocked: [String: [String: Int]] = [:]
        /// chatroom → gagged userId → minutes.
        var gagged: [String: [String: Int]] = [:]
    }

    let store: Store<State>
    let vendor: FakeVendor

    init() {
        (store, vendor) = FakeVendor.stateful(State(), Self.answer)
    }

    func enter(_ accid: String, _ chatroom: String) { store.state.withLock { _ = $0.members[chatroom, default: []].insert(accid) } }
    func tokensExpiredBefore(_ accid: String) -> Int64? { store.state.withLock { $0.expiredBefore[accid] } }
    func isOpen(_ chatroom: String) -> Bool { store.state.withLock { $0.open.contains(chatroom) } }
    func isMember(_ accid: String, _ chatroom: String) -> Bool { store.state.withLock { $0.members[chatroom]?.contains(accid) == true } }
    func blockedMinutes(_ accid: String, _ chatroom: String) -> Int? { store.state.withLock { $0.blocked[chatroom]?[accid] } }
    func gaggedMinutes(_ accid: String, _ chatroom: String) -> Int? { store.state.withLock { $0.gagged[chatroom]?[accid] } }

    static func answer(_ store: Store<State>, _ call: ReceivedCall, _ method: HTTPRequest.Method) -> FakeVendor.Answer {
        guard method == .post, call.headers["content-type"]?.hasPrefix("application/x-www-form-urlencoded") == true else {
            return (.badRequest, #"{"code":1002,"errorMessage":"content type"}"#)
        }
        guard call.headers["app-key"] == appKey, let nonce = call.headers["nonce"], (1...18).contains(nonce.count),
              let timestamp = call.headers["timestamp"], let number = Double(timestamp),
              abs((number > 1e11 ? number / 1000 : number) - Date().timeIntervalSince1970) < 300,
              call.headers["signature"] == sha1(appSecret + nonce + timestamp) else {
            return (.unauthorized, #"{"code":1004,"errorMessage":"signature"}"#)
        }
        guard let expected = parameters[call.path] else { return (.notFound, #"{"code":1002,"errorMessage":"no such call"}"#) }
        let keys = Set(call.parameters.map(\.0))
        let repeatable: Set<String> = call.path == "/chatroom/destroy.json" ? ["chatroomId"] : []
        guard keys == expected, call.parameters.count == keys.count || !repeatable.isEmpty else {
            return (.badRequest, #"{"code":1002,"errorMessage":"parameters \#(keys.sorted())"}"#)
        }
        let form = call.form
        let chatroom = form["chatroomId"] ?? form["toChatroomId"] ?? ""
        return store.state.withLock { state -> FakeVendor.Answer in
            switch call.path {
            case "/user/getToken.json":
                return ok(["userId": .string(form["userId"] ?? ""), "token": .string("rong-" + (form["userId"] ?? ""))])
            case "/user/token/expire.json":
                guard let time = Int64(form["time"] ?? ""), abs(Double(time) / 1000 - Date().timeIntervalSince1970) < 300 else {
                    return (.ok, #"{"code":1002,"errorMessage":"time"}"#)
                }
                state.expiredBefore[form["userId"] ?? ""] = time
                return ok([:])
            case "/chatroom/create_new.json":
                guard form["destroyType"] == "1", let minutes = Int(form["destroyTime"] ?? ""), (60...10_080).contains(minutes) else {
                    return (.ok, #"{"code":1002,"errorMessage":"destroyType/destroyTime"}"#)
                }
                state.open.insert(chatroom)
                return ok([:])
            case "/chatroom/destroy.json":
                for id in call.parameters where id.0 == "chatroomId" { state.open.remove(id.1) }
                return ok([:])
            case "/chatroom/user/exist.json":
                return ok(["isInChrm": .bool(state.members[chatroom]?.contains(form["userId"] ?? "") == true)])
            case "/chatroom/user/query.json":
                let users = (state.members[chatroom] ?? []).sorted().map { JSONValue.object(["id": .string($0), "time": "2026-11-23 06:00:00"]) }
                return ok(["total": .number(Double(users.count)), "users": .array(users)])
            case "/chatroom/user/block/add.json":
                // 1 to 43,200 minutes (30 days), as RongCloud documents.
                guard let user = form["userId"], !user.isEmpty, let minutes = Int(form["minute"] ?? ""), (1...43_200).contains(minutes) else {
                    return (.ok, #"{"code":1002,"errorMessage":"userId/minute"}"#)
                }
                state.members[chatroom]?.remove(user)
                state.blocked[chatroom, default: [:]][user] = minutes
                return ok([:])
            case "/chatroom/user/gag/add.json":
                guard let user = form["userId"], !user.isEmpty, let minutes = Int(form["minute"] ?? ""), (1...43_200).contains(minutes) else {
                    return (.ok, #"{"code":1002,"errorMessage":"userId/minute"}"#)
                }
                state.gagged[chatroom, default: [:]][user] = minutes
                return ok([:])
            case "/chatroom/user/gag/rollback.json":
                state.gagged[chatroom]?[form["userId"] ?? ""] = nil
                return ok([:])
            case "/chatroom/user/block/rollback.json":
                state.blocked[chatroom]?[form["userId"] ?? ""] = nil
                return ok([:])
            case "/message/chatroom/publish.json", "/message/private/publish.json":
                guard JSONValue.parse(form["content"] ?? "") != nil else { return (.ok, #"{"code":1002,"errorMessage":"content must be JSON"}"#) }
                return ok([:])
            default:
                return ok([:])
            }
        }
    }

    private static func ok(_ payload: [String: JSONValue]) -> FakeVendor.Answer {
        var body = payload
        body["code"] = 200
        return (.ok, JSONValue.object(body).jsonText)
    }

    static func sha1(_ text: String) -> String {
        Insecure.SHA1.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

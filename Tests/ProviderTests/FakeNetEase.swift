import Crypto
import Foundation
import HTTPTypes
import RoomCore
import Synchronization

/// NetEase Yunxin's nimserver as its server API documentation describes it (docs/providers.md): form bodies,
/// the CheckSum headers (valid 5 minutes), exact parameters per call,
/// answers with `code` and the call's payload key.
final class FakeNetEase: Sendable {
    static let appKey = "fake-netease-key"
    static let appSecret = "fake-netease-secret"

    /// The parameters each call must carry, exactly.
    static let parameters: [String: Set<String>] = [
        "/user/create.action": ["accid", "name", "icon", "token"],
        "/user/refreshToken.action": ["accid"],
        "/user/update.action": ["accid", "token"],
        "/chatroom/create.action": ["creator", "name", "announcement", "ext", "queuelevel"],
        "/chatroom/toggleCloseStat.action": ["roomid", "operator", "valid"],
        "/chatroom/muteRoom.action": ["roomid", "operator", "mute", "needNotify", "notifyExt"],
        "/chatroom/queueOffer.action": ["roomid", "key", "value", "operator", "transient"],
        "/chatroom/queuePoll.action": ["roomid", "key"],
        "/chatroom/queueList.action": ["roomid"],
        "/chatroom/queueDrop.action": ["roomid"],
        "/chatroom/sendMsg.action": ["roomid", "msgId", "fromAccid", "msgType", "attach", "highPriority"],
        "/msg/sendAttachMsg.action": ["from", "msgtype", "to", "attach", "save"],
        "/chatroom/queryMembers.action": ["roomid", "accids"],
        "/chatroom/get.action": ["roomid", "needOnlineUserCount"],
        "/chatroom/kickMember.action": ["roomid", "accid", "targetAccid", "notifyExt"],
        "/chatroom/setMemberRole.action": ["roomid", "operator", "target", "opt", "optvalue", "notifyExt"],
        "/chatroom/temporaryMute.action": ["roomid", "operator", "target", "muteDuration", "needNotify", "notifyExt"],
    ]

    struct State {
        var accounts: Set<String> = []
        var nextRoom = 70_000_001
        var open: Set<String> = []
        var members: [String: Set<String>] = [:]
        var queues: [String: [String: String]] = [:]
        /// chatroom → blacklisted accids (setMemberRole opt -1).
        var blacklist: [String: Set<String>] = [:]
        /// chatroom → accid → seconds muted (temporaryMute).
        var muted: [String: [String: Int]] = [:]
    }

    let store: Store<State>
    let vendor: FakeVendor

    init() {
        (store, vendor) = FakeVendor.stateful(State(), Self.answer)
    }

    /// Someone entered a chatroom on the NetEase side.
    func enter(_ accid: String, _ chatroom: String) { store.state.withLock { _ = $0.members[chatroom, default: []].insert(accid) } }
    func isOpen(_ chatroom: String) -> Bool { store.state.withLock { $0.open.contains(chatroom) } }
    func isMember(_ accid: String, _ chatroom: String) -> Bool { store.state.withLock { $0.members[chatroom]?.contains(accid) == true } }
    func isBlacklisted(_ accid: String, _ chatroom: String) -> Bool { store.state.withLock { $0.blacklist[chatroom]?.contains(accid) == true } }
    func mutedSeconds(_ accid: String, _ chatroom: String) -> Int? { store.state.withLock { $0.muted[chatroom]?[accid] } }

    static func answer(_ store: Store<State>, _ call: ReceivedCall, _ method: HTTPRequest.Method) -> FakeVendor.Answer {
        guard method == .post else { return (.methodNotAllowed, "") }
        guard call.headers["content-type"] == "application/x-www-form-urlencoded;charset=utf-8" else { return error(414, "content type") }
        guard call.headers["appkey"] == Self.appKey, let nonce = call.headers["nonce"], (1...128).contains(nonce.count),
              let curTime = call.headers["curtime"], let seconds = Double(curTime), abs(seconds - Date().timeIntervalSince1970) < 300,
              call.headers["checksum"] == Self.sha1(Self.appSecret + nonce + curTime) else { return error(414, "checksum") }
        guard let expected = Self.parameters[call.path] else { return error(404, "no such call") }
        let form = call.form
        let optional: Set<String> = ["/chatroom/muteRoom.action": ["notifyExt"], "/user/create.action": ["token"],
                                     "/chatroom/kickMember.action": ["notifyExt"], "/chatroom/setMemberRole.action": ["notifyExt"],
                                     "/chatroom/temporaryMute.action": ["needNotify", "notifyExt"]][call.path] ?? []
        guard Set(form.keys).isSubset(of: expected), expected.subtracting(optional).isSubset(of: Set(form.keys)),
              call.parameters.count == form.count else { return error(414, "parameters \(form.keys.sorted())") }

        return store.state.withLock { state -> FakeVendor.Answer in
            let room = form["roomid"] ?? ""
            if let roomid = form["roomid"], !state.open.contains(roomid), call.path != "/chatroom/toggleCloseStat.action" {
                return error(404, "chatroom \(roomid) not found")
            }
            switch call.path {
            case "/user/create.action":
                guard let accid = form["accid"], accid.count <= 32 else { return error(414, "accid") }
                guard state.accounts.insert(accid).inserted else { return error(414, "already register") }
                return ok(["info": ["accid": .string(accid), "name": .string(form["name"] ?? ""), "token": .string(form["token"] ?? "nim-" + accid)]])
            case "/user/refreshToken.action":
                guard let accid = form["accid"], state.accounts.contains(accid) else { return error(414, "no such accid") }
                return ok(["info": ["accid": .string(accid), "token": .string("nim-new-" + accid)]])
            case "/user/update.action":
                guard let accid = form["accid"], state.accounts.contains(accid) else { return error(414, "no such accid") }
                return ok([:])
            case "/chatroom/create.action":
                let id = String(state.nextRoom)
                state.nextRoom += 1
                state.open.insert(id)
                return ok(["chatroom": ["roomid": .number(Double(id)!), "valid": true, "name": .string(form["name"] ?? ""), "creator": .string(form["creator"] ?? "")]])
            case "/chatroom/toggleCloseStat.action":
                guard form["valid"] == "false" || form["valid"] == "true" else { return error(414, "valid") }
                if form["valid"] == "false" { state.open.remove(room) } else { state.open.insert(room) }
                return ok(["desc": ["roomid": .string(room), "valid": .bool(form["valid"] == "true")]])
            case "/chatroom/muteRoom.action":
                guard ["true", "false"].contains(form["mute"]), ["true", "false"].contains(form["needNotify"]) else { return error(414, "booleans") }
                return ok(["desc": ["success": true]])
            case "/chatroom/queueOffer.action":
                state.queues[room, default: [:]][form["key"] ?? ""] = form["value"] ?? ""
                return ok([:])
            case "/chatroom/queuePoll.action":
                let key = form["key"] ?? ""
                let value = state.queues[room]?.removeValue(forKey: key)
                return ok(["desc": ["key": .string(key), "value": value.map(JSONValue.string) ?? .null]])
            case "/chatroom/queueList.action":
                let list = (state.queues[room] ?? [:]).sorted { $0.key < $1.key }.map { JSONValue.object([$0.key: .string($0.value)]) }
                return ok(["desc": ["list": .array(list)]])
            case "/chatroom/queueDrop.action":
                state.queues[room] = nil
                return ok([:])
            case "/chatroom/sendMsg.action", "/msg/sendAttachMsg.action":
                return ok(["desc": [:]])
            case "/chatroom/queryMembers.action":
                guard case .array(let accids)? = JSONValue.parse(form["accids"] ?? "") else { return error(414, "accids must be a JSON array") }
                let members = state.members[room] ?? []
                let data = accids.compactMap(\.string).map { JSONValue.object(["accid": .string($0), "onlineStat": .bool(members.contains($0))]) }
                return ok(["desc": ["data": .array(data)]])
            case "/chatroom/kickMember.action":
                guard let target = form["targetAccid"], !target.isEmpty, !(form["accid"] ?? "").isEmpty else { return error(414, "accid/targetAccid") }
                guard state.members[room]?.remove(target) != nil else { return error(404, "\(target) is not in chatroom \(room)") }
                return ok(["desc": ["success": true]])
            case "/chatroom/setMemberRole.action":
                guard let target = form["target"], !target.isEmpty, ["1", "2", "-1", "-2"].contains(form["opt"]),
                      ["true", "false"].contains(form["optvalue"]) else { return error(414, "target/opt/optvalue") }
                if form["opt"] == "-1" {
                    if form["optvalue"] == "true" { state.blacklist[room, default: []].insert(target) } else { state.blacklist[room]?.remove(target) }
                }
                return ok(["desc": ["roomid": .string(room), "accid": .string(target)]])
            case "/chatroom/temporaryMute.action":
                // 0 lifts; at most 2,592,000 seconds (30 days).
                guard let target = form["target"], !target.isEmpty, let seconds = Int(form["muteDuration"] ?? ""), (0...2_592_000).contains(seconds),
                      form["needNotify"].map({ ["true", "false"].contains($0) }) ?? true else { return error(414, "target/muteDuration") }
                state.muted[room, default: [:]][target] = seconds == 0 ? nil : seconds
                return ok(["desc": ["success": true]])
            case "/chatroom/get.action":
                return ok(["chatroom": ["roomid": .string(room), "onlineusercount": .number(Double(state.members[room]?.count ?? 0))]])
            default:
                return error(404, "no such call")
            }
        }
    }

    private static func ok(_ payload: [String: JSONValue]) -> FakeVendor.Answer {
        var body = payload
        body["code"] = 200
        return (.ok, JSONValue.object(body).jsonText)
    }

    private static func error(_ code: Int, _ desc: String) -> FakeVendor.Answer {
        (.ok, JSONValue.object(["code": .number(Double(code)), "desc": .string(desc)]).jsonText)
    }

    static func sha1(_ text: String) -> String {
        Insecure.SHA1.hash(data: Data(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}

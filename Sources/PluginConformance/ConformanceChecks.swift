import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RoomCore
import Synchronization

/// The checks themselves: the plugin's own routes act, the admin API
/// observes.
struct CheckContext {
    let check: ConformanceSuite.Check
    let world: World
    let driver: any ConformanceDriver
    /// Every expectation that held, in order: the check's report.
    let held = ExpectationLog()
    let http: any TestClientProtocol

    func client(_ tenant: Int) -> PluginClient {
        PluginClient(tenantID: world.tenantIDs[tenant], pluginID: driver.plugin.id, http: http)
    }

    func visibleInAdminAPI() async throws {
        let creator = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let owner = try await driver.owner(of: roomID, createdBy: creator)
        let room = try await adminRoom(roomID, tenant: 0)
        try expect(room["room"]?["plugin"]?.string == client(0).pluginID, "the room's plugin is \(client(0).pluginID)")
        try expect(room["room"]?["tenant"]?.string == world.tenantIDs[0], "the room belongs to the tenant it was created in")
        try expect(room["room"]?["state"]?.string == "open", "a new room is open")
        try expect(room["room"]?["owner"]?.string == owner.accid, "the room has the owner the plugin gives it (its creator unless the plugin says otherwise)")
        let listed = try await admin("/admin/v1/tenants/\(world.tenantIDs[0])/rooms?plugin=\(client(0).pluginID)&state=open", key: world.operatorKey)
        try expect(listed.json["items"].map(ids)?.contains(roomID) == true, "the room is listed under its tenant and plugin")
    }

    func ownerDissolvesOthersCannot() async throws {
        let creator = try await driver.makeAccount(client(0))
        let other = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let owner = try await driver.owner(of: roomID, createdBy: creator)
        try expect(try await driver.dissolveRoom(client(0), roomID: roomID, as: other) == false, "another account cannot dissolve the room")
        try expect(try await adminRoom(roomID, tenant: 0)["room"]?["state"]?.string == "open", "a refused dissolve changes nothing")
        try expect(try await driver.dissolveRoom(client(0), roomID: roomID, as: owner), "the owner can dissolve the room")
        let room = try await adminRoom(roomID, tenant: 0)["room"]
        try expect(room?["state"]?.string == "closed" && room?["closeReason"]?.string == "dissolved", "dissolved rooms are closed with reason dissolved")
    }

    func expiresAfterTTL() async throws {
        let owner = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: owner)
        let tenant = try require(world.server.services.tenants[world.tenantIDs[0]], "the tenant is loaded")
        let ttl = try require(tenant.plugin(client(0).pluginID)?.policy.ttlSeconds, "the tenant enables the plugin")
        world.clock.advance(by: TimeInterval(ttl) - 1)
        _ = try await world.server.sweeper.sweepOnce()
        try expect(try await adminRoom(roomID, tenant: 0)["room"]?["state"]?.string == "open", "the room is open until its TTL")
        world.clock.advance(by: 2)
        _ = try await world.server.sweeper.sweepOnce()
        let room = try await adminRoom(roomID, tenant: 0)["room"]
        try expect(room?["state"]?.string == "closed" && room?["closeReason"]?.string == "expired", "after its TTL the room is closed with reason expired")
    }

    func closedRoomRefusesJoins() async throws {
        let creator = try await driver.makeAccount(client(0))
        let guest = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let owner = try await driver.owner(of: roomID, createdBy: creator)
        try expect(try await driver.dissolveRoom(client(0), roomID: roomID, as: owner), "the owner can dissolve the room")
        try expect(try await driver.joinRoom(client(0), roomID: roomID, as: guest) == false, "a closed room refuses joins")
        let detail = try await adminRoom(roomID, tenant: 0)
        let joined = detail["members"].map(members)?.filter { $0 == guest.accid } ?? []
        try expect(joined.isEmpty, "the refused account is not a member")
    }

    /// #29: every plugin's way in (a join, audio-chatroom's seat apply, a
    /// viewer's or a player's entry) asks the engine's one ban rule: a
    /// banned account does not get in with the credential it holds, while an
    /// account that is not banned gets into the same room right after (so
    /// the refusal was the ban's, not the room's state).
    func bannedAccountsStayOut() async throws {
        let creator = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let banned = try await driver.makeAccount(client(0))
        let other = try await driver.makeAccount(client(0))
        let bans = "/admin/v1/tenants/\(world.tenantIDs[0])/rooms/\(roomID)/bans"
        let ban = try await admin(bans, key: world.operatorKey, method: .post, json: #"{"account":\#(JSONValue.literal(banned.accid))}"#)
        try expect(ban.status == .created, "the admin API bans the account from the room (got \(ban.status))")
        try expect(try await driver.joinRoom(client(0), roomID: roomID, as: banned) == false, "a banned account does not get in")
        if try await driver.joinRoom(client(0), roomID: roomID, as: other) {
            try expect(true, "an account that is not banned gets in right after: the refusal was the ban's")
        }
        let id = try require(ban.json["id"]?.string, "the ban has an id")
        let lifted = try await admin("\(bans)/\(id)", key: world.operatorKey, method: .delete)
        try expect(lifted.status == .ok && lifted.json["active"] == .bool(false), "the ban is lifted (got \(lifted.status))")
    }

    /// #29: the room's host kicks through the plugin's own route, which the
    /// engine's kick decides (owner only); the kicked account stays out for
    /// the kick's duration, and the timeline names the host.
    func hostsKickOthersCannot() async throws {
        let creator = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let host = try await driver.owner(of: roomID, createdBy: creator)
        // A booked lesson admits its student, who booked it; other rooms anyone.
        let member = host.accid == creator.accid ? try await driver.makeAccount(client(0)) : creator
        // The host goes first where the plugin wants it (a teacher opens the
        // classroom); elsewhere this is refused or changes nothing.
        _ = try await driver.joinRoom(client(0), roomID: roomID, as: host)
        try expect(try await driver.joinRoom(client(0), roomID: roomID, as: member), "a member gets in")
        let stranger = try await driver.makeAccount(client(0))
        try expect(try await driver.kick(client(0), roomID: roomID, account: member, forSeconds: 600, as: stranger) == false,
                   "someone who is not the room's host cannot kick")
        try expect(try await driver.kick(client(0), roomID: roomID, account: member, forSeconds: 600, as: host),
                   "the room's host kicks through the plugin's own route")
        try expect(try await driver.joinRoom(client(0), roomID: roomID, as: member) == false, "the kicked account stays out for the kick's duration")
        let events = try require(try await adminRoom(roomID, tenant: 0)["events"]?.arrayValue, "the room has a timeline")
        try expect(events.contains { $0["kind"]?.string == "kicked" && $0["actor"]?.string == "account:\(host.accid)" },
                   "the timeline says the host kicked (\(events.compactMap { $0["kind"]?.string }))")
    }

    func otherTenantsCannotSeeOrTouch() async throws {
        let owner = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: owner)
        let path = "/admin/v1/tenants/\(world.tenantIDs[0])/rooms/\(roomID)"
        try expect(try await admin(path, key: "\(world.tenantIDs[1])-key").status == .forbidden, "another tenant's key gets 403 on the room")
        let otherListing = try await admin("/admin/v1/tenants/\(world.tenantIDs[1])/rooms", key: "\(world.tenantIDs[1])-key")
        try expect(otherListing.json["items"].map(ids)?.contains(roomID) == false, "the room is not listed under another tenant")
        let stranger = try await driver.makeAccount(client(1))
        try expect(try await driver.dissolveRoom(client(1), roomID: roomID, as: stranger) == false, "another tenant's client cannot dissolve it")
        try expect(try await driver.joinRoom(client(1), roomID: roomID, as: stranger) == false, "another tenant's client cannot join it")
        try expect(try await adminRoom(roomID, tenant: 0)["room"]?["state"]?.string == "open", "the room is untouched")
    }

    /// A room made by the admin API works for the plugin's clients; a plugin
    /// whose rooms need creation data refuses the request without it (422,
    /// naming the field), never making a room its clients cannot use.
    func adminCreatedRoomServesClients() async throws {
        let spec = try await driver.adminRoom(client(0))
        let path = "/admin/v1/tenants/\(world.tenantIDs[0])/rooms"
        var body: [String: JSONValue] = ["plugin": .string(driver.plugin.id), "name": "Admin room", "owner": .string(spec.owner.accid)]
        if let required = spec.requiredOption {
            let refused = try await admin(path, key: world.operatorKey, method: .post, json: JSONValue.object(body).jsonText)
            try expect(refused.status == .unprocessableContent && refused.json["field"]?.string == required,
                       "without its creation data the admin API refuses with 422 naming \(required) (got \(refused.status) \(refused.json))")
        }
        body["options"] = spec.options
        let created = try await admin(path, key: world.operatorKey, method: .post, json: JSONValue.object(body).jsonText)
        try expect(created.status == .created, "the admin API creates the room from its creation data (got \(created.status) \(created.json))")
        let roomID = try require(created.json["id"]?.int64, "the admin API answers the room's id")
        if case .perRoom = driver.plugin.chatroom {
            try expect(created.json["imChatroomId"]?.string != nil, "the engine opened the room's IM chatroom")
        }
        try expect(try await driver.useAdminRoom(client(0), roomID: roomID, spec), "the plugin's clients use the admin API's room")
    }

    /// Absurd TTLs, with the plugin's real creation data so they reach the
    /// plugin, are refused (naming ttlSeconds) on create and on extend, and
    /// write nothing: no TTL may become a date, in the engine or a plugin,
    /// that traps the process when stored (#27: headset-live's creation
    /// hook turned 10^13 s into such a date and stopped every tenant).
    func absurdTTLsAreRefusedOnCreateAndExtend() async throws {
        let spec = try await driver.adminRoom(client(0))
        let path = "/admin/v1/tenants/\(world.tenantIDs[0])/rooms"
        let body: [String: JSONValue] = ["plugin": .string(driver.plugin.id), "name": "TTL room", "owner": .string(spec.owner.accid), "options": spec.options]
        func withTTL(_ ttl: String) -> String {
            String(JSONValue.object(body).jsonText.dropLast()) + #","ttlSeconds":\#(ttl)}"#
        }
        let absurd = ["10000000000000", "9223372036854775807", "-9223372036854775808", "0", "-1", "\(366 * 86_400 + 1)", "1e30", "1.5"]
        for ttl in absurd {
            let refused = try await admin(path, key: world.operatorKey, method: .post, json: withTTL(ttl))
            try expect((400..<500).contains(refused.status.code) && refused.json["field"]?.string == "ttlSeconds",
                       "a create with ttlSeconds \(ttl) is refused naming ttlSeconds (got \(refused.status) \(refused.json))")
        }
        let listed = try await admin("\(path)?plugin=\(driver.plugin.id)&limit=200", key: world.operatorKey)
        try expect(!(listed.json["items"]?.arrayValue ?? []).contains { $0["name"]?.string == "TTL room" }, "no refused create made a room")
        let created = try await admin(path, key: world.operatorKey, method: .post, json: withTTL("\(366 * 86_400)"))
        try expect(created.status == .created, "the longest TTL is accepted (got \(created.status) \(created.json))")
        let roomID = try require(created.json["id"]?.int64, "the admin API answers the room's id")
        let expiresAt = created.json["expiresAt"]
        // The longest TTL on top of the room's remaining time reaches past 366 days from now.
        for ttl in absurd + ["\(366 * 86_400)"] {
            let refused = try await admin("\(path)/\(roomID)/extend", key: world.operatorKey, method: .post, json: #"{"ttlSeconds":\#(ttl)}"#)
            try expect((400..<500).contains(refused.status.code) && refused.json["field"]?.string == "ttlSeconds",
                       "an extend by \(ttl) s is refused naming ttlSeconds (got \(refused.status) \(refused.json))")
        }
        let room = try await adminRoom(roomID, tenant: 0)["room"]
        try expect(room?["state"]?.string == "open" && room?["expiresAt"] == expiresAt, "refused extends changed nothing")
    }

    /// Closing a room reaches the IM provider: the engine closes the room's
    /// chatroom, after the plugin's own closing messages (in the close's own
    /// statement when the IM keeps chatrooms in this database and nothing of
    /// the room waits in its IM lane).
    func closingReachesTheIMProvider() async throws {
        let creator = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let owner = try await driver.owner(of: roomID, createdBy: creator)
        try expect(try await driver.dissolveRoom(client(0), roomID: roomID, as: owner), "the owner can dissolve the room")
        let entries = try await delivered(roomID)
        let closes = entries.filter { if case .im(.closeChatroom)? = $0.effect { true } else { false } }
        // The local IM's chatroom is closed by the room's own close statement
        // when no IM effect of the room waits before it (#28): then there is
        // no outbox entry for it, and its `closed` event is there once.
        let closedInStatement = try await closedEvents(roomID)
        if case .perRoom = driver.plugin.chatroom, closes.isEmpty {
            try expect(closedInStatement == 1, "the room's IM chatroom was closed by the room's close statement, once")
        } else if case .perRoom = driver.plugin.chatroom {
            try expect(closes.count == 1, "the room's IM chatroom was closed through the IM provider, once")
            try expect(entries.last.map { closes.contains($0) } == true, "after the plugin's own closing messages")
        } else {
            try expect(closes.isEmpty, "a plugin without IM chatrooms closes none")
        }
    }

    /// A room's side effects leave in the order they were written.
    func sideEffectsAreOrderedPerRoom() async throws {
        let creator = try await driver.makeAccount(client(0))
        let roomID = try await driver.createRoom(client(0), owner: creator)
        let owner = try await driver.owner(of: roomID, createdBy: creator)
        for _ in 0..<2 { _ = try await driver.joinRoom(client(0), roomID: roomID, as: try await driver.makeAccount(client(0))) }
        try expect(try await driver.dissolveRoom(client(0), roomID: roomID, as: owner), "the owner can dissolve the room")
        let entries = try await delivered(roomID)
        // The local IM's chatroom may close in the close's own statement (#28).
        let closedInStatement = try await closedEvents(roomID)
        try expect(!entries.isEmpty || closedInStatement == 1, "closing the room sent side effects")
        try expect(entries.map(\.id) == entries.map(\.id).sorted(), "they were delivered in the order they were written")
    }

    // MARK: helpers

    /// The `closed` events of the room's chatroom in the local IM.
    func closedEvents(_ roomID: RoomID) async throws -> Int {
        // Read in the tenant's cell, as its requests are.
        try await LeaseOwner.$tenant.withValue(world.tenantIDs[0]) {
            try await world.server.services.database.query("""
                SELECT count(*)::int FROM im_events WHERE tenant_id = \(world.tenantIDs[0]) AND chatroom_id = \(String(roomID)) AND kind = 'closed'
                """).decode(Int.self).first ?? 0
        }
    }

    /// Waits (up to 10 s) until none of the room's outbox entries is pending;
    /// returns what was delivered, in delivery order.
    func delivered(_ roomID: RoomID) async throws -> [OutboxEntry] {
        // Read in the tenant's cell, as its requests are.
        try await LeaseOwner.$tenant.withValue(world.tenantIDs[0]) { try await deliveredInCell(roomID) }
    }

    private func deliveredInCell(_ roomID: RoomID) async throws -> [OutboxEntry] {
        let store = OutboxStore(database: world.server.services.database)
        for _ in 0..<200 {
            let pending = try await store.list(world.tenantIDs[0], status: .pending, before: nil, limit: 200).filter { $0.roomID == roomID }
            if pending.isEmpty { break }
            try await Task.sleep(for: .milliseconds(50))
        }
        let dead = try await store.list(world.tenantIDs[0], status: .dead, before: nil, limit: 200).filter { $0.roomID == roomID }
        try expect(dead.isEmpty, "no side effect of the room failed (\(dead.map { $0.lastError ?? "" }))")
        return world.deliveries.entries(world.tenantIDs[0], room: roomID)
    }

    func admin(_ path: String, key: String, method: HTTPRequest.Method = .get, json: String? = nil) async throws -> PluginClient.Answer {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(key)"
        if json != nil { headers[.contentType] = "application/json" }
        let response = try await http.execute(uri: path, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
        return PluginClient.Answer(status: response.status, json: JSONValue.parse(String(buffer: response.body)) ?? .null)
    }

    func adminRoom(_ roomID: RoomID, tenant: Int) async throws -> JSONValue {
        let answer = try await admin("/admin/v1/tenants/\(world.tenantIDs[tenant])/rooms/\(roomID)", key: world.operatorKey)
        try expect(answer.status == .ok, "the admin API shows room \(roomID) (got \(answer.status))")
        return answer.json
    }

    func ids(_ items: JSONValue) -> [RoomID] {
        guard case .array(let rooms) = items else { return [] }
        return rooms.compactMap { $0["id"]?.int64 }
    }

    func members(_ items: JSONValue) -> [String] {
        guard case .array(let members) = items else { return [] }
        return members.compactMap { $0["status"]?.string == "joined" ? $0["accid"]?.string : nil }
    }

    func expect(_ condition: Bool, _ message: String) throws {
        guard condition else { throw ConformanceSuite.Failure(check: check, message: message) }
        held.append(message)
    }

    func require<T>(_ value: T?, _ message: String) throws -> T {
        guard let value else { throw ConformanceSuite.Failure(check: check, message: message) }
        return value
    }
}

/// The expectations a check saw hold.
final class ExpectationLog: Sendable {
    private let messages = Mutex<[String]>([])
    func append(_ message: String) { messages.withLock { $0.append(message) } }
    var all: [String] { messages.withLock { $0 } }
}

import ArgumentParser
import Foundation
import RoomAdminCLI
import RoomCore
import RoomTestSupport
import Testing

/// `roomkeeper admin …` end to end (#44): each command parsed as the shell
/// would pass it and run against a live server over HTTP on 127.0.0.1.
@Suite struct AdminCLITests {
    /// Runs `roomkeeper admin <arguments>` with `key` and the server's URL
    /// in its environment; what it printed.
    static func admin(_ arguments: [String], port: Int, key: String) async throws -> [String] {
        let output = CLIOutput(capturing: true)
        try await CLIOutput.$current.withValue(output) {
            try await CLIOutput.$environment.withValue(["ROOMKEEPER_ADMIN_KEY": key, "ROOMKEEPER_ADMIN_URL": "http://127.0.0.1:\(port)"]) {
                var command = try Admin.parseAsRoot(arguments)
                if var asynchronous = command as? any AsyncParsableCommand { try await asynchronous.run() } else { try command.run() }
            }
        }
        return output.captured
    }

    @Test func roomsKeysBansEventsAndUsageFromTheShell() async throws {
        let fixture = try await ServerFixture()
        let tenant = fixture.id(0)
        try await fixture.live { http in
            let port = try #require(http.client.port)
            func admin(_ arguments: String, key: String? = nil) async throws -> [String] {
                try await Self.admin(arguments.split(separator: " ").map(String.init) + ["--tenant", tenant], port: port, key: key ?? fixture.key(0))
            }
            let created = try await http.post("/admin/v1/tenants/\(tenant)/rooms", key: fixture.key(0),
                                              json: #"{"plugin":"test-rooms","name":"Lobby","owner":"alice","ttlSeconds":600}"#)
            let room = try #require(created.json["id"]?.int64)

            let listed = try await admin("rooms list")
            #expect(listed.first?.hasPrefix("id") == true && listed.contains { $0.hasPrefix("\(room) ") && $0.contains("Lobby") }, "\(listed)")
            let asJSON = try #require(JSONValue.parse(try await admin("rooms list --json").joined()))
            guard case .array(let rooms) = asJSON else { Issue.record("not an array: \(asJSON)"); return }
            #expect(rooms.count == 1 && rooms[0]["id"]?.int64 == room)
            #expect(try await admin("rooms show \(room)").contains { $0.contains("Lobby") })
            #expect(try await admin("rooms extend \(room) --ttl 900").contains { $0.hasPrefix("\(room) ") })

            let banned = try await admin("ban mallory --seconds 60 --reason spam")
            let banID = try #require(banned.dropFirst().first?.split(separator: " ").first.map(String.init))
            #expect(banned.count == 2 && banned[1].contains("mallory"), "\(banned)")
            #expect(try await admin("unban \(banID)").contains { $0.contains("mallory") })

            let made = try await admin("keys create --label cli-reader --scope read")
            let key = try #require(made.last?.dropFirst("key: ".count).description)
            #expect(key.hasPrefix("rk_"), "\(made)")
            #expect(try await admin("rooms list", key: key).contains { $0.hasPrefix("\(room) ") }, "the reader lists rooms")
            await #expect(throws: AdminCLIError.self, "the reader may not dissolve") { try await admin("rooms dissolve \(room)", key: key) }
            do {
                _ = try await admin("rooms dissolve \(room)", key: key)
            } catch let refusal as AdminCLIError {
                #expect(refusal.description == "Forbidden: this key lacks the scope rooms", "the problem's title and detail")
            }
            let keys = try await admin("keys list")
            #expect(keys.contains { $0.contains("cli-reader") && $0.contains("read") } && !keys.joined().contains(key), "\(keys)")
            let id = try #require(keys.first { $0.contains("cli-reader") }?.split(separator: " ").first.map(String.init))
            #expect(try await admin("keys revoke \(id)").count == 2)
            await #expect(throws: AdminCLIError.self, "revoked") { try await admin("rooms list", key: key) }

            let muted = try await admin("mute \(room) bob --seconds 60")
            #expect(muted.count == 2 && muted[1].contains("bob"), "\(muted)")
            let outbox = try await admin("outbox list --status dead")
            #expect(outbox.first?.hasPrefix("id") == true, "a table, empty or not: \(outbox)")
            do {
                _ = try await admin("outbox retry 999999999")
                Issue.record("an entry that is not there was retried")
            } catch let refusal as AdminCLIError {
                #expect(refusal.description.hasPrefix("Not Found"), "\(refusal)")
            }
            #expect(try await admin("rooms dissolve \(room)").contains { $0.contains("closed") })
            let cursorFile = FileManager.default.temporaryDirectory.appendingPathComponent("cursor-\(UUID().uuidString)").path
            defer { try? FileManager.default.removeItem(atPath: cursorFile) }
            let events = try await admin("events tail --cursor-file \(cursorFile)")
            #expect(events.contains { $0.contains("room.created") } && events.contains { $0.contains("room.closed") }, "\(events)")
            #expect(try await admin("events tail --cursor-file \(cursorFile)").isEmpty, "resumed after the saved cursor: nothing new")

            let csv = try await admin("usage --csv")
            #expect(csv.first == "start,room_minutes,member_minutes,peak_members,rooms_opened,joins,api_requests,im_messages,webhook_deliveries",
                    "the API's CSV as served: \(csv.prefix(2))")
            #expect(csv.count >= 2, "a row for the hour the requests above were made")
        }
        await #expect(throws: AdminCLIError.self, "no key") {
            try await CLIOutput.$environment.withValue([:]) {
                var command = try Admin.parseAsRoot(["keys", "list", "--tenant", tenant])
                if var asynchronous = command as? any AsyncParsableCommand { try await asynchronous.run() } else { try command.run() }
            }
        }
    }
}

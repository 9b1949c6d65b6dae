import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// #30, item 3: a tenant's usage by hour equals what the test's own load
/// did, written by two instances and read after a restart, as JSON and as a
/// CSV that Python's csv module reads.
@Suite(.serialized) struct UsageTests {
    @Test func usageEqualsTheScriptedLoadAcrossTwoInstancesAndARestart() async throws {
        // 10:10 of some hour ("10" for short): the room opens then.
        let ten = Date(timeIntervalSince1970: (1_900_000_000 / 3_600 + Double(Int.random(in: 0...100_000))).rounded(.down) * 3_600)
        let clock = ManualClock(ten.addingTimeInterval(600))
        let fixture = try await ServerFixture(clock: clock)
        let tenant = fixture.id(0)
        let local = try #require(fixture.tenants[0].imAdapter(LocalIMProvider.self))
        let box = RoomBox()
        try await OutboxWakeTests.live(try fixture.server()) { other in
            try await fixture.live { http in
                let room = try #require(data(try await http.form("/t/\(tenant)/test-rooms/room/create", "sid=host&name=metered"))?["roomId"]?.int64)
                box.room = room
                clock.advance(by: 600)  // 10:20
                #expect(try await other.form("/t/\(tenant)/test-rooms/room/join", "sid=bob&roomId=\(room)")["code"]?.int64 == 200)
                #expect(try await http.form("/t/\(tenant)/test-rooms/room/join", "sid=carol&roomId=\(room)")["code"]?.int64 == 200)
                // Three texts in the room's local chatroom, over a real socket.
                let port = try #require(http.client.port)
                let token = try await local.createAccount(IMAccount(accid: "carol", name: "carol")).token
                let client = IMTestClient(port: port, tenant: tenant, accid: "carol", token: token)
                _ = try await client.next("ready")
                client.send(#"{"type":"enter","chatroom":"\#(room)"}"#)
                _ = try await client.next("entered")
                for index in 0..<3 {
                    client.send(#"{"type":"text","chatroom":"\#(room)","text":"hello \#(index)"}"#)
                    _ = try await client.next("message")
                }
                _ = try await client.close()
                clock.advance(by: 1_200)  // 10:40
                #expect(try await other.form("/t/\(tenant)/test-rooms/room/kick", "sid=host&roomId=\(room)&account=bob")["code"]?.int64 == 200)
                clock.advance(by: 1_200)  // 11:00 (the room's TTL, an hour, ends at 11:10)
            }
        }
        // A restart: a new instance folds what the others wrote.
        try await fixture.live { http in
            let room = try #require(box.room)
            clock.advance(by: 300)  // 11:05
            let dissolved = try await http.form("/t/\(tenant)/test-rooms/room/dissolve", "sid=host&roomId=\(room)")
            #expect(dissolved["code"]?.int64 == 200, "\(dissolved)")
            clock.advance(by: 600)  // 11:15
            let range = "from=\(Self.iso(ten))&to=\(Self.iso(ten.addingTimeInterval(7_200)))"
            let answer = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(range)", key: fixture.key(0))
            #expect(answer.status == .ok, "\(answer.text.prefix(300))")
            let items = answer.json["items"]?.arrayValue ?? []
            #expect(items.count == 2, "\(answer.text)")
            let (first, second) = (items.first ?? .null, items.last ?? .null)
            #expect(first["start"]?.string == Self.iso(ten) && second["start"]?.string == Self.iso(ten.addingTimeInterval(3_600)))
            // 10:10-11:00 open; bob 10:20-10:40, carol 10:20-11:00.
            #expect(first["roomMinutes"]?.double == 50 && first["memberMinutes"]?.double == 60, "\(first)")
            #expect(first["peakMembers"]?.int64 == 2 && first["roomsOpened"]?.int64 == 1 && first["joins"]?.int64 == 2)
            // create, two joins, the kick; the texts over the socket are not API requests.
            #expect(first["apiRequests"]?.int64 == 4 && first["imMessages"]?.int64 == 3, "\(first)")
            // 11:00-11:05 open, carol in it until it closed.
            #expect(second["roomMinutes"]?.double == 5 && second["memberMinutes"]?.double == 5 && second["peakMembers"]?.int64 == 1, "\(second)")
            #expect(second["apiRequests"]?.int64 == 1 && second["roomsOpened"]?.int64 == 0, "the dissolve: \(second)")

            // Asked again, nothing is counted twice (the first ask is a request of hour 11 now).
            let again = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(range)", key: fixture.key(0))
            let last = again.json["items"]?.arrayValue?.last ?? .null
            #expect(last["roomMinutes"]?.double == 5 && last["apiRequests"]?.int64 == 2, "\(last)")

            // By day, and as CSV read by Python's csv module.
            let daily = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(range)&granularity=day", key: fixture.key(0))
            let day = daily.json["items"]?.arrayValue ?? []
            #expect(day.count == (Calendar.utc.isDate(ten, inSameDayAs: ten.addingTimeInterval(3_600)) ? 1 : 2))
            #expect(day.compactMap { $0["roomMinutes"]?.double }.reduce(0, +) == 55)
            let csv = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(range)&format=csv", key: fixture.key(0))
            #expect(csv.status == .ok && csv.headers[.contentType]?.hasPrefix("text/csv") == true)
            let read = try Self.python("""
                import csv, io, sys
                rows = list(csv.DictReader(io.StringIO(sys.stdin.read())))
                print(len(rows), rows[0]["room_minutes"], rows[0]["member_minutes"], rows[0]["im_messages"], rows[1]["room_minutes"])
                """, input: csv.text)
            #expect(read == "2 50.00 60.00 3 5.00", "\(csv.text)")

            // Bad input: named, nothing read.
            for (query, field) in [("granularity=week", "granularity"), ("format=xml", "format"), ("from=yesterday", "from"), ("to=2026-13-01T00:00:00Z", "to")] {
                let refused = try await http.get("/admin/v1/tenants/\(tenant)/usage?\(query)", key: fixture.key(0))
                #expect(refused.status == .badRequest && refused.json["field"]?.string == field, "\(query): \(refused.text)")
            }
            // Valid date-times are answered: a range that ends before it starts
            // is empty; one wider than an answer reaches starts 31 days before `to`.
            let backwards = try await http.get("/admin/v1/tenants/\(tenant)/usage?from=2026-01-01T00:00:00Z&to=2025-01-01T00:00:00Z", key: fixture.key(0))
            #expect(backwards.status == .ok && backwards.json["items"]?.arrayValue?.isEmpty == true)
            let wide = try await http.get("/admin/v1/tenants/\(tenant)/usage?from=2000-01-01T00:00:00Z&to=2026-01-01T00:00:00Z", key: fixture.key(0))
            #expect(wide.status == .ok && wide.json["from"]?.string == "2025-12-01T00:00:00Z", "\(wide.text.prefix(200))")
            // Another tenant's key sees nothing of it.
            #expect(try await http.get("/admin/v1/tenants/\(tenant)/usage", key: fixture.key(1)).status == .forbidden)
        }
    }

    static func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }

    static func python(_ program: String, input: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", program]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = stdout.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}

private final class RoomBox: @unchecked Sendable {
    var room: Int64?
}

extension Calendar {
    static var utc: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        return calendar
    }
}

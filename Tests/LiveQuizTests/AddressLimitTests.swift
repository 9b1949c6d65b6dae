import Foundation
import LiveQuiz
import RoomCore
import RoomTestSupport
import Testing

/// #16, finding 8: what one client address may create, as the seed's
/// live-quiz server limited it (code 407), counted in PostgreSQL so every
/// instance shares the count.
@Suite struct AddressLimitTests {
    @Test func aHostAddressCreatesOneGameEveryThreeSeconds() async throws {
        let fixture = try await QuizFixture(table: "[plugins.live-quiz]\n")
        try await fixture.server.live { http in
            let base = fixture.base()
            let first = try await http.form("\(base)/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=5")
            #expect(first["code"] == .number(200))
            let second = try await http.form("\(base)/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=5")
            #expect(second["code"] == .number(407), "\(second)")
            #expect(second["msg"]?.string?.contains("new rooms") == true)
            fixture.clock.advance(by: 3)
            #expect(try await http.form("\(base)/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=5")["code"] == .number(200), "the next window")
        }
    }

    /// A refusal for "too often" is not the request's final answer: a retry
    /// with the same `Idempotency-Key` once the window has passed runs it,
    /// where the kept refusal was replayed to it for 24 hours.
    @Test func aRateLimitedRefusalIsNotKeptForItsIdempotencyKey() async throws {
        let fixture = try await QuizFixture(table: "[plugins.live-quiz]\n")
        try await fixture.server.live { http in
            let base = fixture.base()
            #expect(try await http.form("\(base)/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=5")["code"] == .number(200))
            let keyValue = "create-\(uniqueID())"
            let body = "deviceId=pc-\(uniqueID())&bonus=5"
            let refused = try await http.request(.post, "\(base)/quiz/host/create", form: body, headers: [.init("Idempotency-Key")!: keyValue])
            #expect(refused.json["code"] == .number(407), "\(refused.text)")
            fixture.clock.advance(by: 3)
            let retried = try await http.request(.post, "\(base)/quiz/host/create", form: body, headers: [.init("Idempotency-Key")!: keyValue])
            #expect(retried.json["code"] == .number(200), "the retry ran: \(retried.text)")
            let again = try await http.request(.post, "\(base)/quiz/host/create", form: body, headers: [.init("Idempotency-Key")!: keyValue])
            #expect(again.text == retried.text && again.headers[.init("Idempotency-Replayed")!] == "true", "a success is kept")
        }
    }

    @Test func touristsPerAddressAreCappedAndAForgedForwardedForChangesNothing() async throws {
        let fixture = try await QuizFixture(table: "[plugins.live-quiz]\naccountsPerAddress = \"3/1d\"\n")
        try await fixture.server.live { http in
            let base = fixture.base()
            for _ in 0..<3 {
                #expect(try await http.form("\(base)/quiz/player/create", "")["code"] == .number(200))
            }
            let refused = try await http.form("\(base)/quiz/player/create", "")
            #expect(refused["code"] == .number(407))
            let forged = try await http.request(.post, "\(base)/quiz/player/create", form: "", headers: [.init("X-Forwarded-For")!: "203.0.113.9"])
            #expect(forged.json["code"] == .number(407), "127.0.0.1 is no trusted proxy: its X-Forwarded-For is not believed")
            let rows = try await fixture.server.database.query("""
                SELECT count(*)::int FROM accounts WHERE tenant_id = \(fixture.server.id(0))
                """)
            #expect(try rows.decode(Int.self).first == 3, "refused logins wrote no account")
            #expect(try await http.form("\(fixture.base(1))/quiz/player/create", "")["code"] == .number(200), "another tenant counts apart")
        }
    }

    @Test func aParallelBurstOverTwoInstancesGetsExactlyTheLimit() async throws {
        let fixture = try await QuizFixture(table: "[plugins.live-quiz]\nroomsPerAddress = \"4/1h\"\n")
        try await fixture.server.live { first in
            try await fixture.server.live { second in
                let ports = [try #require(first.client.port), try #require(second.client.port)]
                let answers = try await withThrowingTaskGroup(of: [JSONValue].self) { group in
                    for port in ports {
                        group.addTask {
                            try await ParallelRequests.send(port: port, (0..<6).map { _ in
                                ParallelRequests.Request(path: "\(fixture.base())/quiz/host/create", body: "deviceId=pc-\(uniqueID())&bonus=5")
                            }).map(\.answer)
                        }
                    }
                    return try await group.reduce(into: []) { $0 += $1 }
                }
                #expect(answers.count == 12)
                #expect(answers.filter { $0["code"] == .number(200) }.count == 4, "\(answers.map { $0["code"] ?? .null })")
                #expect(answers.filter { $0["code"] == .number(407) }.count == 8)
            }
        }
    }
}

import Foundation
import LiveQuiz
import PluginConformance
import RoomCore
import RoomTestSupport
import Synchronization
import Testing

struct QuizFixture {
    let server: ServerFixture
    let clock = ManualClock()
    static let registry = PluginRegistry([AnyRoomPlugin(LiveQuizPlugin())])

    /// Tests not about per-address limits turn them off (every player here is 127.0.0.1).
    init(table: String = "[plugins.live-quiz]\nroomsPerAddress = \"0\"\naccountsPerAddress = \"0\"\n") async throws {
        server = try await ServerFixture(pluginTables: [table, table], registry: Self.registry, clock: clock, sweepInterval: .seconds(3_600))
    }

    func base(_ tenant: Int = 0) -> String { "/t/\(server.id(tenant))/live-quiz" }
}


/// A game as the host holds it.
struct HostedGame {
    let roomID: Int64
    let password: String
    let base: String
    let http: HTTP

    static func create(_ http: HTTP, _ base: String, bonus: String = "100") async throws -> HostedGame {
        let created = try #require(data(try await http.form("\(base)/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=\(bonus)")))
        let game = HostedGame(roomID: try #require(created["roomId"]?.int64), password: try #require(created["password"]?.string), base: base, http: http)
        #expect(try await game.host("question/publish", "questionId=1&time=0")["code"] == .number(1205), "not before the game is live")
        #expect(try await game.host("switch", "status=1")["code"] == .number(200))
        return game
    }

    func host(_ path: String, _ extra: String) async throws -> JSONValue {
        try await http.form("\(base)/quiz/host/\(path)", "roomId=\(roomID)&password=\(password)&\(extra)")
    }

    func answer(_ sid: String, question: Int, option: Int) async throws -> Int64? {
        try await http.form("\(base)/quiz/player/answer", "sid=\(sid)&roomId=\(roomID)&questionId=\(question)&answer=\(option)")["data"]?["result"]?.int64
    }
}

/// What each player's results must be, computed independently of the server.
struct ReferencePlayer {
    var playing = true
    var revives = 1
    var answered = 0

    mutating func answer(_ question: Int, right: Bool) -> Int {
        guard playing else { return 2 }
        guard answered == question - 1 else { playing = false; return 2 }
        answered += 1
        if right { return 1 }
        if revives > 0 { revives -= 1 } else { playing = false }
        return 0
    }
}

@Suite struct QuizGameTests {
    /// 200 players answer 3 questions concurrently over real HTTP; every
    /// result, count, winner and share is checked against a reference.
    @Test func aScriptedGameWithTwoHundredConcurrentPlayers() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base(), bonus: "1000")
            let observer = try await observe(http, fixture, game)
            var players: [String] = []
            for _ in 0..<200 {
                let sid = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", ""))?["sid"]?.string)
                let room = try #require(data(try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")))
                #expect(room["gameStatus"] == .number(1) && room["questionCount"] == .number(3))
                players.append(sid)
            }
            // Who chooses what: the built-in bank's right answers are 1, 1, 0.
            let rightAnswers = [1, 1, 0]
            func choice(_ player: Int, _ question: Int) -> Int? {
                switch question {
                case 1: return player % 2 == 0 ? 1 : 2
                case 2: return player % 7 == 0 ? nil : (player % 3 == 0 ? 0 : 1)
                default: return player % 5 == 0 ? 2 : 0
                }
            }
            var reference = Array(repeating: ReferencePlayer(), count: players.count)
            for question in 1...3 {
                #expect(try await game.host("question/publish", "questionId=\(question)&time=\(question * 1000)")["code"] == .number(200))
                let results = try await withThrowingTaskGroup(of: (Int, Int64?).self) { group in
                    for (index, sid) in players.enumerated() {
                        guard let option = choice(index, question) else { continue }
                        group.addTask { (index, try await game.answer(sid, question: question, option: option)) }
                    }
                    return try await group.reduce(into: [Int: Int64?]()) { $0[$1.0] = $1.1 }
                }
                var expectedCounts = [0, 0, 0]
                for index in players.indices {
                    guard let option = choice(index, question) else { continue }
                    let expected = reference[index].answer(question, right: option == rightAnswers[question - 1])
                    #expect(results[index] == Int64(expected), "player \(index), question \(question)")
                    if expected != 2 { expectedCounts[option] += 1 }
                }
                #expect(try await game.host("result/publish", "questionId=\(question)&time=\(question * 1000 + 500)")["code"] == .number(1202),
                        "not while answering is open")
                fixture.clock.advance(by: 21)
                let result = try #require(data(try await game.host("result/query", "questionId=\(question)")))
                guard case .array(let options)? = result["options"] else { Issue.record("options"); return }
                #expect(options.map { $0["selectCount"]?.int64 ?? -1 } == expectedCounts.map(Int64.init), "question \(question)")
                #expect(result["rightAnswer"] == .number(Double(rightAnswers[question - 1])))
                #expect(try await game.host("result/publish", "questionId=\(question)&time=\(question * 1000 + 500)")["code"] == .number(200))
            }
            let winners = reference.filter { $0.playing && $0.answered == 3 }.count
            let final = try #require(data(try await game.host("result/query", "questionId=3"))?["bonusInfo"])
            #expect(final["winnerCount"] == .number(Double(winners)) && final["playerCount"] == .number(200))
            #expect(final["bonus"] == .number(Double(100_000 / winners) / 100), "1000 split, floored to the cent")

            // The observer saw cmd 1 and 4 for each question, then cmd 5, in order, with the host's times.
            var seen: [(Int64, Int64)] = []
            while seen.count < 7 {
                let message = try await observer.next("message")
                guard let body = JSONValue.parse(message["body"]?.string ?? ""), let cmd = body["cmd"]?.int64 else { continue }
                seen.append((cmd, body["data"]?["time"]?.int64 ?? -1))
                if cmd == 1 { #expect(body["data"]?["questionInfo"]?["rightAnswer"] == nil, "no answer in the question") }
                if cmd == 5 { #expect(body["data"]?["winnerCount"] == .number(Double(winners))) }
            }
            #expect(seen.map(\.0) == [1, 4, 1, 4, 1, 4, 5])
            #expect(seen.map(\.1) == [1000, 1500, 2000, 2500, 3000, 3500, 3500])
            _ = try await observer.close()

            // #18: the timeline (what webhooks send) has each question, without its answer, then its results; the last with the final.
            let events = try await fixture.server.server().services.engine.store.events(fixture.server.id(0), game.roomID)
                .filter { $0.kind.stored.hasPrefix("live-quiz.") }
            #expect(events.map(\.kind.stored) == Array(repeating: [LiveQuizPlugin.questionPublished, LiveQuizPlugin.resultsPublished], count: 3).flatMap { $0 })
            #expect(events.filter { $0.kind == .plugin(LiveQuizPlugin.questionPublished) }.allSatisfy { !$0.detail.contains("rightAnswer") })
            let last = JSONValue.parse(events.last?.detail ?? "")
            #expect(last?["rightAnswer"] == .number(Double(rightAnswers[2])) && last?["final"]?["winners"] == .number(Double(winners)))
        }
    }

    @Test func invalidAnswersAreResultTwoAndCountNothing() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base())
            func player() async throws -> String {
                let sid = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", ""))?["sid"]?.string)
                _ = try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")
                return sid
            }
            let (ann, bob, cat) = (try await player(), try await player(), try await player())
            #expect(try await game.answer(ann, question: 1, option: 1) == 2, "not published yet")
            _ = try await game.host("question/publish", "questionId=1&time=1")
            let late = try await player()
            #expect(try await game.answer(late, question: 1, option: 1) == 2, "a spectator: not in the room when the first question went out")
            #expect(try await game.answer(ann, question: 1, option: 1) == 1)
            #expect(try await game.answer(ann, question: 1, option: 1) == 2, "a second answer")
            #expect(try await game.answer(bob, question: 2, option: 1) == 2, "not the current question")
            #expect(try await game.answer(bob, question: 1, option: 0) == 0, "wrong: the revive")
            fixture.clock.advance(by: 21)
            #expect(try await game.answer(cat, question: 1, option: 1) == 2, "late")
            _ = try await game.host("question/publish", "questionId=2&time=2")
            #expect(try await game.answer(cat, question: 2, option: 1) == 2, "missed question 1: out")
            #expect(try await game.answer(bob, question: 2, option: 0) == 0, "wrong twice: out")
            fixture.clock.advance(by: 21)
            _ = try await game.host("question/publish", "questionId=3&time=3")
            #expect(try await game.answer(bob, question: 3, option: 0) == 2, "an out player")
            let counts = try #require(data(try await game.host("result/query", "questionId=1"))?["options"])
            #expect(counts == .array([["optionId": 0, "content": "上海", "selectCount": 1], ["optionId": 1, "content": "北京", "selectCount": 1],
                                      ["optionId": 2, "content": "广州", "selectCount": 0]]))
            #expect(try await http.form("\(fixture.base())/quiz/player/answer", "sid=\(ann)&roomId=\(game.roomID)&questionId=9&answer=0")["code"] == .number(1201))
            #expect(try await http.form("\(fixture.base())/quiz/player/answer", "sid=\(ann)&roomId=\(game.roomID)&questionId=3&answer=7")["code"] == .number(400))
            #expect(try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(ann)&roomId=424242")["code"] == .number(804))
        }
    }

    @Test func aForgedResultChangesNothingPlayersSee() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base())
            let observer = try await observe(http, fixture, game)
            _ = try await game.host("question/publish", "questionId=1&time=10")
            fixture.clock.advance(by: 21)
            let forged = #"{"cmd":4,"data":{"questionInfo":{"questionId":1,"rightAnswer":2},"time":10}}"#
            let body = "roomId=\(game.roomID)&password=\(game.password)&questionId=1&time=20&rightAnswer=2&msg=\(forged.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
            #expect(try await http.form("\(fixture.base())/quiz/host/result/publish", body)["code"] == .number(200))
            var answer = JSONValue.null
            while answer["cmd"] != .number(4) { answer = JSONValue.parse(try await observer.next("message")["body"]?.string ?? "") ?? .null }
            #expect(answer["data"]?["questionInfo"]?["rightAnswer"] == .number(1), "the stored right answer, not the host's")
            #expect(try await http.form("\(fixture.base())/quiz/host/result/publish", "roomId=\(game.roomID)&password=wrong&questionId=1&time=1")["code"] == .number(401))
            _ = try await observer.close()
        }
    }

    @Test func switchingToOverClosesTheGameAndItsChatroom() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base())
            let sid = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", ""))?["sid"]?.string)
            #expect(try await game.host("switch", "status=1")["code"] == .number(200))
            #expect(data(try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)"))?["liveStatus"] == .number(1))
            #expect(try await game.host("switch", "status=2")["code"] == .number(200))
            #expect(try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")["code"] == .number(1203))
            let room = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms/\(game.roomID)", key: fixture.server.operatorKey)
            #expect(room.json["room"]?["state"]?.string == "closed")
            // A new game replaces the one that is over.
            #expect(try await game.host("switch", "status=1")["code"] == .number(1203))
        }
    }

    @Test func badQuestionsAreRefusedByNameAndCreateNothing() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            func create(_ questions: String) async throws -> JSONValue {
                let encoded = questions.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
                return try await http.form("\(fixture.base())/quiz/host/create", "deviceId=pc-\(uniqueID())&bonus=5&questions=\(encoded)")
            }
            let good = #"{"question":"q","options":["a","b"],"rightAnswer":0}"#
            let cases: [(String, String)] = [
                ("[\(good),\(good)]", "questions must hold 3 to 50 questions"),
                ("{}", "questions must be a JSON array"),
                (#"[\#(good),\#(good),{"question":"q","options":["a"],"rightAnswer":0}]"#, "questions[2].options"),
                (#"[\#(good),\#(good),{"question":"q","options":["a","b"],"rightAnswer":2}]"#, "questions[2].rightAnswer"),
                (#"[\#(good),\#(good),{"question":"a\#u{0}b","options":["a","b"],"rightAnswer":0}]"#, "questions"),
            ]
            for (questions, message) in cases {
                let answer = try await create(questions)
                #expect(answer["code"] == .number(400) && answer["msg"]?.string?.hasPrefix(message) == true, Comment(rawValue: "\(answer)"))
            }
            #expect(try await http.form("\(fixture.base())/quiz/host/create", "deviceId=pc-x&bonus=0")["code"] == .number(400))
            // #27: under a cent the game cannot pay (it answered the internal error).
            for bonus in ["0.001", "0.0099", "nan", "inf"] {
                let answer = try await http.form("\(fixture.base())/quiz/host/create", "deviceId=pc-x&bonus=\(bonus)")
                #expect(answer["code"] == .number(400) && answer["msg"]?.string?.hasPrefix("bonus") == true, Comment(rawValue: "bonus \(bonus): \(answer)"))
            }
            let admin = try await http.post("/admin/v1/tenants/\(fixture.server.id(0))/rooms", key: fixture.server.operatorKey,
                                            json: #"{"plugin":"live-quiz","name":"q","owner":"o","options":{"deviceId":"pc-y","bonus":0.001,"password":"12345678"}}"#)
            #expect(admin.status == .unprocessableContent && admin.json["field"]?.string == "options.bonus", "\(admin.json)")
            #expect(try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms", key: fixture.server.operatorKey).json["items"] == .array([]),
                    "nothing was created")
        }
    }

    /// Concurrent creates for one device: one game (the unique index
    /// decides). Only its host, who holds its password, gets it again; the
    /// others learn nothing of it (no answers, no new password).
    @Test func concurrentCreatesForOneDeviceGiveOneGameToItsHostOnly() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let device = "pc-\(uniqueID())"
            let answers = try await ParallelRequests.form(port: try #require(http.client.port), "\(fixture.base())/quiz/host/create",
                                                          "deviceId=\(device)&bonus=5", count: 4)
            let games = answers.compactMap { data($0) }
            #expect(games.count == 1, "one game: \(answers)")
            #expect(answers.filter { $0["code"] == .number(1204) }.count == 3, "the others are refused")
            let game = try #require(games.first)
            let password = try #require(game["password"]?.string)
            let again = try await http.form("\(fixture.base())/quiz/host/create", "deviceId=\(device)&bonus=5")
            #expect(again["code"] == .number(1204) && again["data"] == nil, "no answers, no password for a stranger")
            let resumed = try #require(data(try await http.form("\(fixture.base())/quiz/host/create", "deviceId=\(device)&bonus=5&password=\(password)")))
            #expect(resumed["roomId"] == game["roomId"] && resumed["password"]?.string == password)
            let rooms = try await http.get("/admin/v1/tenants/\(fixture.server.id(0))/rooms", key: fixture.server.operatorKey)
            guard case .array(let items)? = rooms.json["items"] else { Issue.record("rooms"); return }
            #expect(items.count == 1, "the losers' rooms were never created")
            #expect(items.first?["owner"]?.string?.contains(device) == false, "the owner does not reveal the device")
        }
    }

    /// The admin API meets a plugin's own refusal (a second open game for a
    /// device) as a 409 problem, never a 500, and creates nothing.
    @Test func anAdminGameForABusyDeviceIsAConflict() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/rooms"
            let body = #"{"plugin":"live-quiz","name":"Quiz","owner":"host-op","options":{"deviceId":"pc-busy","bonus":5,"password":"operator-pass"}}"#
            #expect(try await http.post(path, key: fixture.server.operatorKey, json: body).status == .created)
            let again = try await http.post(path, key: fixture.server.operatorKey, json: body)
            #expect(again.status == .conflict && again.json["code"]?.string == "plugin_refused", "\(again.status) \(again.json)")
            #expect(again.json["detail"]?.string?.contains("open game") == true)
            guard case .array(let rooms)? = try await http.get(path, key: fixture.server.operatorKey).json["items"] else { Issue.record("rooms"); return }
            #expect(rooms.count == 1, "the refused room was not created")
        }
    }

    /// A duplicate answer sent many times at once counts once and never puts
    /// the player out (the player's row is locked in a statement of its own).
    @Test func parallelDuplicateAnswersCountOnce() async throws {
        let fixture = try await QuizFixture()
        try await fixture.server.live { http in
            let game = try await HostedGame.create(http, fixture.base())
            let sid = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", ""))?["sid"]?.string)
            _ = try await http.form("\(fixture.base())/quiz/player/room/query", "sid=\(sid)&roomId=\(game.roomID)")
            _ = try await game.host("question/publish", "questionId=1&time=1")
            let body = "sid=\(sid)&roomId=\(game.roomID)&questionId=1&answer=1"
            let results = try await ParallelRequests.form(port: try #require(http.client.port), "\(fixture.base())/quiz/player/answer", body, count: 8)
                .map { $0["data"]?["result"]?.int64 }
            #expect(results.filter { $0 == 1 }.count == 1, "one answer judged right: \(results)")
            #expect(results.filter { $0 == 2 }.count == 7, "the duplicates are refused")
            fixture.clock.advance(by: 21)
            let counts = try #require(data(try await game.host("result/query", "questionId=1"))?["options"])
            guard case .array(let options) = counts else { Issue.record("options"); return }
            #expect(options.map { $0["selectCount"] } == [.number(0), .number(1), .number(0)])
            _ = try await game.host("question/publish", "questionId=2&time=2")
            #expect(try await game.answer(sid, question: 2, option: 1) == 1, "still playing")
        }
    }

    /// A local-IM client, as a fresh player, in the game's chatroom (whose id is the room's).
    func observe(_ http: HTTP, _ fixture: QuizFixture, _ game: HostedGame) async throws -> IMTestClient {
        let player = try #require(data(try await http.form("\(fixture.base())/quiz/player/create", "")))
        let client = IMTestClient(port: try #require(http.client.port),
                                  tenant: fixture.server.id(0), accid: player["accid"]?.string ?? "", token: player["imToken"]?.string ?? "")
        client.send(#"{"type":"enter","chatroom":"\#(game.roomID)"}"#)
        _ = try await client.next("entered")
        return client
    }
}

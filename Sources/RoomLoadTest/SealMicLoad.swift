import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import RoomKit
import Synchronization

/// The load test on SealMic's wire: guests log in, each room's host creates
/// it, members open their IM socket and enter the room's chatroom, then
/// join the room all at once (timed); members send chatroom messages at the
/// plan's rate; every room is destroyed and every guest logged out.
struct SealMicLoad {
    let plan: LoadTestPlan
    let http: HTTPClient
    let tally: LoadTestTally
    let progress: @Sendable (String, Int, Int) -> Void

    struct Guest: Sendable {
        let accid: String
        let authorization: String
        let imToken: String
    }

    /// `data.result` of a SealMic answer, or nil with the error counted.
    func call(_ path: String, _ form: [String: String], token: String? = nil) async -> JSONValue? {
        var request = HTTPClientRequest(url: plan.pluginBase + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        if let token { request.headers.add(name: "Authorization", value: token) }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let body = form.map { "\($0.key)=\($0.value.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
        request.body = .bytes(ByteBuffer(string: body))
        do {
            let response = try await http.execute(request, timeout: .seconds(15))
            let bytes = try await response.body.collect(upTo: 1 << 22)
            let answer = JSONValue.parse(String(buffer: bytes))
            let code = answer?["errCode"]?.int64
            guard response.status == .ok, code == 0 else {
                tally.error("http \(response.status.code)/\(code.map(String.init) ?? "-") \(path)")
                return nil
            }
            return answer?["data"]?["result"] ?? .null
        } catch {
            tally.error("http \(type(of: error)) \(path)")
            return nil
        }
    }

    func run(into report: inout LoadTestReport) async {
        let people = plan.rooms * (plan.members + 1)
        let done = Counter()
        let guests: [Guest?] = await concurrently(Array(0..<people), width: 16) { index in
            defer { progress("logins", done.next(), people) }
            guard let result = await call("/user/login", ["deviceId": "load-test-\(plan.runID)-\(index)"]),
                  let accid = result["userId"]?.string, let authorization = result["authorization"]?.string,
                  let imToken = result["imToken"]?.string else { return nil }
            return Guest(accid: accid, authorization: authorization, imToken: imToken)
        }
        let hosts = (0..<plan.rooms).map { guests[$0 * (plan.members + 1)] }
        let made = Counter()
        let roomIDs: [String?] = await concurrently(Array(hosts.enumerated()), width: 8) { index, host in
            defer { progress("rooms", made.next(), plan.rooms) }
            guard let host, let room = await call("/room/create", ["subject": "load test \(plan.runID) \(index)", "roomType": "0"], token: host.authorization),
                  let id = room["roomId"]?.string ?? room["roomId"]?.int64.map(String.init) else { return nil }
            return id
        }
        // Members enter their room's IM chatroom first (the seed's order).
        let start = ContinuousClock.now
        let seats: [(room: Int, guest: Guest)] = (0..<plan.rooms).filter { roomIDs[$0] != nil }.flatMap { room in
            (1...plan.members).compactMap { member in guests[room * (plan.members + 1) + member].map { (room, $0) } }
        }
        let entered = Counter()
        let members: [IMMember?] = await concurrently(seats, width: 32) { seat in
            defer { progress("IM sockets", entered.next(), seats.count) }
            let member = IMMember(url: plan.imSocketURL, accid: seat.guest.accid, token: seat.guest.imToken, chatroom: roomIDs[seat.room]!,
                                  clock: start, tally: tally)
            guard await member.awaitFrame("ready") else {
                tally.error("im no ready")
                await member.close()
                return nil
            }
            member.send(["type": "enter", "chatroom": .string(roomIDs[seat.room]!)])
            guard await member.awaitFrame("entered") else {
                tally.error("im not entered")
                await member.close()
                return nil
            }
            return member
        }
        // Then every member joins at once: joins/s is this phase's.
        let joined = Counter()
        let joinStart = ContinuousClock.now
        let joins: [Bool] = await concurrently(Array(zip(seats, members)), width: 64) { seat, member in
            defer { progress("joins", joined.next(), seats.count) }
            guard member != nil else { return false }
            return await call("/room/join", ["roomId": roomIDs[seat.room]!], token: seat.guest.authorization) != nil
        }
        let joinElapsed = ContinuousClock.now - joinStart
        report.joins = joins.filter { $0 }.count
        report.joinSeconds = joinElapsed.inSeconds
        report.joinsPerSecond = joinElapsed > .zero ? (Double(report.joins) / joinElapsed.inSeconds * 10).rounded() / 10 : 0

        await sendMessages(members.compactMap { $0 }, since: start)
        for member in members { await member?.close() }

        let ended = Counter()
        await withTaskGroup(of: Void.self) { group in
            for (host, room) in zip(hosts, roomIDs) {
                guard let host, let room else { continue }
                group.addTask { _ = await call("/room/destroy", ["roomId": room], token: host.authorization) }
            }
        }
        _ = await concurrently(guests.compactMap { $0 }, width: 16) { guest in
            defer { progress("logouts", ended.next(), people) }
            _ = await call("/user/logout", [:], token: guest.authorization)
        }
    }

    /// At the plan's rate, round-robin over the members, for its seconds;
    /// then up to 5 s for the last deliveries.
    private func sendMessages(_ members: [IMMember], since start: ContinuousClock.Instant) async {
        guard !members.isEmpty else { return }
        let perRoom = Dictionary(grouping: members, by: \.chatroom).mapValues(\.count)
        let interval = Duration.seconds(1) / plan.messagesPerSecond
        let total = plan.messagesPerSecond * plan.seconds
        var due = ContinuousClock.now
        for sequence in 0..<total {
            try? await Task.sleep(until: due)
            due += interval
            let member = members[sequence % members.count]
            let nanos = (ContinuousClock.now - start).inNanoseconds
            member.send(["type": "text", "chatroom": .string(member.chatroom), "text": .string("lt \(sequence) \(nanos)")])
            tally.sent(reaching: (perRoom[member.chatroom] ?? 1) - 1)
            if sequence % max(1, plan.messagesPerSecond / 4) == 0 { progress("messages", sequence + 1, total) }
        }
        progress("messages", total, total)
        let drain = ContinuousClock.now + .seconds(5)
        while tally.deliveries < tally.expected, ContinuousClock.now < drain {
            try? await Task.sleep(for: .milliseconds(50))
        }
    }
}

/// Counts finished steps for the progress line.
final class Counter: Sendable {
    private let value = Atomic<Int>(0)
    func next() -> Int { value.add(1, ordering: .relaxed).newValue }
}

import Foundation
import HummingbirdWSClient
import Logging
import NIOWebSocket
import RoomKit
import Synchronization

/// One member's local-IM socket: logs in with its first frame, enters its
/// room's chatroom, sends text, and records the delivery latency of every
/// load-test message it receives from another member.
final class IMMember: Sendable {
    let accid: String
    let chatroom: String
    /// Where `send` goes: the current connection's outgoing frames.
    private let outgoing = OutgoingFrames()
    private let seen = SeenFrames()
    /// Closed by the load test itself: what ends the socket then is not an error.
    private let closing = Flag()
    private let task = Mutex<Task<Void, Never>?>(nil)

    /// A socket closed 1013 ("try again later") before it was ready is
    /// opened again, as a real client would, at most this many times (CI's
    /// load test runs right after the chaos run, while the cluster settles).
    static let attempts = 3

    init(url: String, accid: String, token: String, chatroom: String, clock: ContinuousClock.Instant, tally: LoadTestTally) {
        self.accid = accid
        self.chatroom = chatroom
        let (seen, closing, outgoing) = (self.seen, self.closing, self.outgoing)
        var logger = Logger(label: "load-test-im")
        logger.logLevel = .critical
        let login = JSONValue.object(["type": "login", "accid": .string(accid), "token": .string(token)]).jsonText
        let running = Task {
            for attempt in 1...Self.attempts {
                let (stream, continuation) = AsyncStream.makeStream(of: String.self)
                outgoing.replace(with: continuation)
                do {
                    let close = try await WebSocketClient.connect(url: url, logger: logger) { inbound, outbound, _ in
                        try await outbound.write(.text(login))
                        try await withThrowingTaskGroup(of: Void.self) { group in
                            group.addTask {
                                for await text in stream { try await outbound.write(.text(text)) }
                            }
                            for try await message in inbound.messages(maxSize: 1 << 20) {
                                guard case .text(let text) = message, let frame = JSONValue.parse(text), let type = frame["type"]?.string else { continue }
                                switch type {
                                case "message":
                                    guard let body = frame["body"]?.string, body.hasPrefix("lt "), frame["from"]?.string != accid else { continue }
                                    let parts = body.split(separator: " ")
                                    guard parts.count == 3, let sentNanos = Int64(parts[2]) else { continue }
                                    let nowNanos = (ContinuousClock.now - clock).inNanoseconds
                                    tally.delivered(latencyMs: Double(nowNanos - sentNanos) / 1_000_000)
                                case "error":
                                    tally.error("im \(frame["code"]?.string ?? "?")")
                                default:
                                    seen.insert(type)
                                }
                            }
                            group.cancelAll()
                        }
                    }
                    if let close, close.closeCode == .unknown(1013), !seen.contains("ready"), attempt < Self.attempts, !closing.isSet {
                        tally.retried()
                        try? await Task.sleep(for: .milliseconds(500 * attempt))
                        continue
                    }
                    if let close, close.closeCode != .normalClosure, close.closeCode != .goingAway, !closing.isSet {
                        tally.error("socket \(String(describing: close.closeCode))")
                    }
                } catch {
                    if !closing.isSet { tally.error("socket \(String(String(describing: error).prefix(80)))") }
                }
                return
            }
        }
        task.withLock { $0 = running }
    }

    func send(_ frame: JSONValue) { outgoing.yield(frame.jsonText) }

    /// Waits until a frame of `type` has come (polls: at most a few hundred sockets, once).
    func awaitFrame(_ type: String, timeout: Duration = .seconds(10)) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if seen.contains(type) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return false
    }

    func close() async {
        closing.set()
        outgoing.finish()
        let running = task.withLock { $0 }
        running?.cancel()
        _ = await running?.value
    }
}

/// The current connection's outgoing frames (a new stream each attempt:
/// an attempt's cancelled sender ends its stream).
final class OutgoingFrames: Sendable {
    private let current = Mutex<AsyncStream<String>.Continuation?>(nil)
    func replace(with continuation: AsyncStream<String>.Continuation) { current.withLock { $0 = continuation } }
    func yield(_ frame: String) { _ = current.withLock { $0?.yield(frame) } }
    func finish() { current.withLock { $0?.finish() } }
}

/// The frame types a socket has received (`ready`, `entered`, …).
final class SeenFrames: Sendable {
    private let types = Mutex<Set<String>>([])
    func insert(_ type: String) { _ = types.withLock { $0.insert(type) } }
    func contains(_ type: String) -> Bool { types.withLock { $0.contains(type) } }
}

/// A flag set once, read from any task.
final class Flag: Sendable {
    private let value = Atomic<Bool>(false)
    var isSet: Bool { value.load(ordering: .relaxed) }
    func set() { value.store(true, ordering: .relaxed) }
}

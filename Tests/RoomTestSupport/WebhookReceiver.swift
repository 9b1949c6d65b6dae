import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import RoomCore
import Synchronization

/// A tenant's back end for tests: a real HTTP server on 127.0.0.1 that keeps
/// every delivery it gets, answering 503 while it is `down`.
public final class WebhookReceiver: Sendable {
    public struct Delivery: Sendable {
        public let id: String
        public let timestamp: String
        public let signature: String
        public let body: String
        public let accepted: Bool
        public var json: JSONValue { JSONValue.parse(body) ?? .null }
        public var type: String { json["type"]?.string ?? "" }
    }

    private let state = Mutex<(down: Bool, deliveries: [Delivery])>((false, []))
    private let answerDelay = Mutex<Duration>(.zero)

    /// How long the receiver takes to answer (a slow back end).
    public var delay: Duration {
        get { answerDelay.withLock { $0 } }
        set { answerDelay.withLock { $0 = newValue } }
    }

    public init() {}

    public var down: Bool {
        get { state.withLock { $0.down } }
        set { state.withLock { $0.down = newValue } }
    }

    public var deliveries: [Delivery] { state.withLock { $0.deliveries } }
    public var accepted: [Delivery] { deliveries.filter(\.accepted) }

    /// Runs the receiver while `body` runs; `body` gets its port.
    public func run<T: Sendable>(_ body: @escaping @Sendable (Int) async throws -> T) async throws -> T {
        let router = Router()
        router.post("hook") { [self] request, _ -> Response in
            let bytes = try await request.body.collect(upTo: 1 << 20)
            let fields = request.headers
            let down = self.state.withLock { state -> Bool in
                state.deliveries.append(Delivery(
                    id: fields[HTTPField.Name("webhook-id")!] ?? "", timestamp: fields[HTTPField.Name("webhook-timestamp")!] ?? "",
                    signature: fields[HTTPField.Name("webhook-signature")!] ?? "", body: String(buffer: bytes), accepted: !state.down))
                return state.down
            }
            let delay = self.delay
            if delay > .zero { try await Task.sleep(for: delay) }
            return Response(status: down ? .serviceUnavailable : .noContent)
        }
        let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        return try await app.test(.live) { client in
            try await body(try require(client.port))
        }
    }

    /// Waits until `condition` holds of the deliveries (polling), up to `seconds`.
    public func wait(_ what: String, seconds: Double = 20, until condition: @escaping @Sendable ([Delivery]) -> Bool) async throws {
        try await withDeadline(seconds, { "waiting for \(what); got \(self.deliveries.map { "\($0.type)\($0.accepted ? "" : " (refused)")" })" }) {
            while !condition(self.deliveries) { try await Task.sleep(for: .milliseconds(50)) }
        }
    }
}

private func require<T>(_ value: T?) throws -> T {
    guard let value else { throw DeadlineExceeded(description: "the receiver has no port") }
    return value
}

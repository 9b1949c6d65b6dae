import Foundation

/// What a load test measured: its joins, its messages' delivery latency
/// and every error by where and code.
public struct LoadTestReport: Sendable, Codable, Equatable {
    public var plan: Plan
    public var joins: Int = 0
    public var joinSeconds: Double = 0
    public var joinsPerSecond: Double = 0
    public var messagesSent: Int = 0
    /// Deliveries to the room's other members (each message once to each).
    public var deliveriesExpected: Int = 0
    public var deliveries: Int = 0
    public var latencyMs: Percentiles = Percentiles(samples: [])
    /// `http <status>/<errCode>`, `im <code>`, `socket <close code>` → count.
    public var errors: [String: Int] = [:]
    /// IM sockets closed 1013 ("try again later") before ready and opened again (not errors).
    public var imRetries = 0
    public var seconds: Double = 0

    public struct Plan: Sendable, Codable, Equatable {
        public var url: String
        public var tenant: String
        public var plugin: String
        public var rooms: Int
        public var membersPerRoom: Int
        public var messagesPerSecond: Int
        public var seconds: Int
    }

    public struct Percentiles: Sendable, Codable, Equatable {
        public var p50: Double?
        public var p95: Double?
        public var p99: Double?
        public var max: Double?

        /// Nearest-rank percentiles of `samples` (milliseconds), to 0.01 ms.
        public init(samples: [Double]) {
            let sorted = samples.sorted()
            func rank(_ q: Double) -> Double? {
                guard !sorted.isEmpty else { return nil }
                let index = Swift.max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1)
                return (sorted[Swift.min(index, sorted.count - 1)] * 100).rounded() / 100
            }
            p50 = rank(0.50)
            p95 = rank(0.95)
            p99 = rank(0.99)
            max = sorted.last.map { ($0 * 100).rounded() / 100 }
        }
    }

    init(plan: LoadTestPlan) {
        self.plan = Plan(url: plan.url, tenant: plan.tenant, plugin: plan.plugin, rooms: plan.rooms, membersPerRoom: plan.members,
                         messagesPerSecond: plan.messagesPerSecond, seconds: plan.seconds)
    }

    public var json: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: (try? encoder.encode(self)) ?? Data("{}".utf8), as: UTF8.self)
    }

    public var table: String {
        func ms(_ value: Double?) -> String { value.map { String(format: "%.2f ms", $0) } ?? "-" }
        var rows: [(String, String)] = [
            ("target", "\(plan.url) tenant \(plan.tenant), \(plan.plugin)"),
            ("rooms × members", "\(plan.rooms) × \(plan.membersPerRoom) (and a host each)"),
            ("joins", "\(joins) in \(String(format: "%.2f", joinSeconds)) s: \(joinsPerSecond) joins/s"),
            ("messages sent", "\(messagesSent) (asked \(plan.messagesPerSecond)/s for \(plan.seconds) s)"),
            ("deliveries", "\(deliveries) of \(deliveriesExpected)"),
            ("delivery latency", "p50 \(ms(latencyMs.p50)), p95 \(ms(latencyMs.p95)), p99 \(ms(latencyMs.p99)), max \(ms(latencyMs.max))"),
        ]
        rows.append(("IM sockets retried", "\(imRetries) (closed 1013, try again, before ready)"))
        rows.append(("errors", errors.isEmpty ? "none" : errors.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")))
        rows.append(("took", String(format: "%.1f s", seconds)))
        let width = rows.map(\.0.count).max() ?? 0
        return rows.map { $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 }.joined(separator: "\n")
    }
}

import Foundation
import Hummingbird
import Prometheus
import RoomCore
import Synchronization

/// `/healthz` (alive), `/readyz` (database reachable, migrations current),
/// `/metrics` (Prometheus text).
struct OpsRoutes: Sendable {
    let services: RoomServices
    let migrator: Migrator
    let metrics: PrometheusCollectorRegistry
    /// SHA-256 of `ROOMKEEPER_METRICS_KEY`: who sends it sees tenant labels.
    let metricsKeyDigest: String?
    let gauges = RoomGauges()
    let refresher = GaugeRefresher(interval: .seconds(15))

    struct Status: ResponseEncodable {
        let status: String
    }

    func register(on router: Router<RoomRequestContext>) {
        router.get("healthz") { _, _ in Status(status: "ok") }

        router.get("readyz") { _, context -> Status in
            let pending: [String]
            do {
                pending = try await migrator.pending(services.database)
            } catch {
                context.logger.warning("readiness: database unreachable", metadata: ["error": "\(error)"])
                throw Problem(.serviceUnavailable, code: "database_unreachable", detail: "the database does not answer")
            }
            guard pending.isEmpty else {
                throw Problem(.serviceUnavailable, code: "migrations_pending", detail: "migrations not applied: \(pending.joined(separator: ", "))")
            }
            return Status(status: "ready")
        }

        router.get("metrics") { request, context -> Response in
            // The database answering is a metric itself (#30: an alert on it):
            // a failed read is a 0, and the last values of the gauges stay.
            let up = metrics.makeGauge(descriptor: .named("roomkeeper_database_up", help: "1 when the last read of the database for /metrics succeeded, else 0"))
            _ = PrimaryRouter.primaryChanges
            do {
                try await refresher.refreshIfStale { try await gauges.refresh(services: services, registry: metrics) }
                up.set(Double(1))
            } catch {
                context.logger.warning("metrics: the database did not answer", metadata: ["error": "\(LoggableError.describe(error))"])
                up.set(Double(0))
            }
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            var text = metrics.emitToBuffer()
            if !holdsMetricsKey(request) { text = MetricsText.withoutTenants(text) }
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: text)))
        }
    }
}

extension OpsRoutes {
    func holdsMetricsKey(_ request: Request) -> Bool {
        guard let metricsKeyDigest, let header = request.headers[.authorization], let key = AuthorizationHeader.bearer(header) else { return false }
        return Secrets.equal(Secrets.sha256Hex(key), metricsKeyDigest)
    }
}

/// Anyone may scrape /metrics, and a tenant's id is not for anyone (#16):
/// series labelled by tenant (requests by tenant, webhook endpoints) go only
/// to a scraper holding `ROOMKEEPER_METRICS_KEY`. The rest is served as is.
enum MetricsText {
    static func withoutTenants(_ text: [UInt8]) -> [UInt8] {
        let marker = Array("tenant=\"".utf8)
        var kept: [UInt8] = []
        kept.reserveCapacity(text.count)
        for line in text.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            if line.first != UInt8(ascii: "#"), line.firstRange(of: marker) != nil { continue }
            kept.append(contentsOf: line)
            kept.append(UInt8(ascii: "\n"))
        }
        if kept.last == UInt8(ascii: "\n"), text.last != UInt8(ascii: "\n") { kept.removeLast() }
        return kept
    }
}

/// /metrics needs no login, so a scrape must stay cheap whoever sends it:
/// the gauges are read from the database at most once per `interval`, and
/// scrapes that arrive meanwhile (or during the read) share that one read.
actor GaugeRefresher {
    let interval: Duration
    private var last: ContinuousClock.Instant?
    private var running: Task<Void, any Error>?
    /// Database reads so far (exported, so the sharing can be seen).
    private(set) var reads = 0

    init(interval: Duration) {
        self.interval = interval
    }

    func refreshIfStale(_ read: @escaping @Sendable () async throws -> Void) async throws {
        if let running { return try await running.value }
        if let last, ContinuousClock.now - last < interval { return }
        let task = Task { try await read() }
        running = task
        reads += 1
        AppMetrics.registry.makeCounter(descriptor: .named("roomkeeper_metrics_reads_total", help: "Reads of the database made to answer /metrics")).increment()
        defer { running = nil }
        try await task.value
        last = .now
    }
}

/// Gauges read from the database: open rooms by plugin, and the outbox
/// entries not yet delivered (pending, dead). Only partial indexes are read
/// (schema/core/0006), so closed rooms and delivered entries cost nothing.
/// No tenant label: /metrics is not tenant-scoped.
final class RoomGauges: Sendable {
    private let seen = Mutex<Set<[String]>>([])

    private struct Counted: Sendable {
        let key: String
        let count: Int
    }

    func refresh(services: RoomServices, registry: PrometheusCollectorRegistry) async throws {
        var rooms: [[String]: Int] = [:]
        var outbox: [[String]: Int] = [["outbox", "pending"]: 0, ["outbox", "dead"]: 0]
        var overdue = 0
        let database = services.database, dueBefore = services.clock.now().addingTimeInterval(-60)
        // Summed over the cells (#43): each holds its own tenants' rows.
        let counted = try await database.inEachCell {
            let open = try await database.query("""
                -- cross-tenant: /metrics counts the whole service
                SELECT plugin_id, count(*)::int FROM rooms WHERE state = 'open' GROUP BY plugin_id
                """).decode((String, Int).self)
            let undelivered = try await database.query("""
                -- cross-tenant: /metrics counts the whole service
                SELECT status, count(*)::int FROM outbox WHERE status <> 'delivered' GROUP BY status
                """).decode((String, Int).self)
            // Rooms a minute past their end and still open: the sweeper is behind.
            let late = try await database.query("""
                -- cross-tenant: /metrics counts the whole service
                SELECT count(*)::int FROM (SELECT 1 FROM rooms WHERE state = 'open' AND expires_at < \(dueBefore) LIMIT 100000) due
                """).decode(Int.self).first ?? 0
            return (open.map { Counted(key: $0.0, count: $0.1) }, undelivered.map { Counted(key: $0.0, count: $0.1) }, late)
        }
        for (open, undelivered, late) in counted {
            for row in open { rooms[["rooms", row.key, "open"], default: 0] += row.count }
            for row in undelivered { outbox[["outbox", row.key], default: 0] += row.count }
            overdue += late
        }
        registry.makeGauge(descriptor: .named("roomkeeper_rooms_overdue", help: "Open rooms more than a minute past their expiry: the sweeper is behind")).set(Double(overdue))
        // Moves of tenants between cells in progress, by phase, and the
        // tenants this instance holds fenced now (#43).
        if let cells = database.cells {
            registry.makeGauge(descriptor: .named("roomkeeper_tenants_fenced", help: "Tenants this instance holds fenced for a move between cells")).set(Double(cells.fenced.count))
            let moves = try await database.inFirstCell {
                try await database.query("""
                    -- cross-tenant: /metrics counts the moves in progress
                    SELECT phase, count(*)::int FROM tenant_moves GROUP BY phase
                    """).decode((String, Int).self)
            }
            for phase in ["copying", "fenced", "flipped"] {
                registry.makeGauge(descriptor: .named("roomkeeper_tenant_moves", help: "Moves of tenants between cells in progress, by phase"), labels: [("phase", phase)])
                    .set(Double(moves.first { $0.0 == phase }?.1 ?? 0))
            }
        }
        let current = rooms.merging(outbox) { a, _ in a }
        // A label set that disappeared from the query is zero now, not stale.
        let all = seen.withLock { seen in
            seen.formUnion(current.keys)
            return seen
        }
        for key in all {
            let value = Double(current[key] ?? 0)
            if key[0] == "rooms" {
                registry.makeGauge(descriptor: .named("roomkeeper_rooms", help: "Rooms by plugin and state"), labels: [("plugin", key[1]), ("state", key[2])]).set(value)
            } else {
                registry.makeGauge(descriptor: .named("roomkeeper_outbox_entries", help: "Outbox entries not yet delivered, by status"), labels: [("status", key[1])]).set(value)
            }
        }
    }
}

extension MetricNameDescriptor {
    /// A metric named whole, as our series are (`roomkeeper_…`), with its
    /// `# HELP` line.
    static func named(_ name: String, help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}

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
    let gauges = RoomGauges()

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

        router.get("metrics") { _, _ -> Response in
            try await gauges.refresh(services: services, registry: metrics)
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.emitToBuffer())))
        }
    }
}

/// Gauges read from the database at scrape time: rooms by plugin and state,
/// and the outbox backlog. No tenant label: /metrics is not tenant-scoped.
final class RoomGauges: Sendable {
    private let seen = Mutex<Set<[String]>>([])

    func refresh(services: RoomServices, registry: PrometheusCollectorRegistry) async throws {
        var rooms: [[String]: Int] = [:]
        for count in try await services.engine.store.roomCounts(nil) {
            rooms[["rooms", count.pluginID, count.state], default: 0] += count.count
        }
        var outbox: [[String]: Int] = [:]
        for count in try await OutboxStore(database: services.database).counts(nil) {
            outbox[["outbox", count.status], default: 0] += count.count
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
                registry.makeGauge(name: "roomkeeper_rooms", labels: [("plugin", key[1]), ("state", key[2])]).set(value)
            } else {
                registry.makeGauge(name: "roomkeeper_outbox_entries", labels: [("status", key[1])]).set(value)
            }
        }
    }
}

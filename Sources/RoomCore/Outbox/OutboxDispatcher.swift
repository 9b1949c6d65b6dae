import Foundation
import Tracing
import Logging
import Metrics
import ServiceLifecycle
import Synchronization

/// Delivers outbox entries at least once: claims due entries under a lease,
/// delivers them outside any transaction, then records the outcome. Failures
/// back off exponentially; after `maxAttempts` (or a permanent failure) an
/// entry is dead and waits for an operator's retry in the admin API.
public struct OutboxDispatcher: Service {
    public struct Configuration: Sendable {
        public var pollInterval: Duration = .milliseconds(250)
        public var batchSize = 100
        /// IM and live effects in flight: 100 in all, 50 for one tenant.
        public var effects = Limits(total: 100, perDestination: 50, perTenant: 50)
        /// Webhook deliveries in flight: 64 in all, 4 to one endpoint (the
        /// HTTP client keeps at most 8 connections to one host), 16 for one tenant.
        public var webhookLimits = Limits(total: 64, perDestination: 4, perTenant: 16)
        /// With the 5-minute cap, 400 attempts span at least 24 hours (26 to
        /// 33, by the jitter): a vendor or a webhook receiver down for a day
        /// still gets every effect when it is back (8, before, gave up after
        /// about 2 minutes of outage).
        public var maxAttempts = 400
        public var baseBackoff: TimeInterval = 1
        public var maxBackoff: TimeInterval = 300
        /// Longest one delivery may take; the lease is a little longer.
        public var deliveryTimeout: TimeInterval = 15
        /// Tenants this dispatcher serves; nil serves all.
        public var tenants: [TenantID]?
        /// Rings when this instance queued work.
        public var signal = OutboxSignal()
        /// Each tenant's webhook endpoints, told when one of its entries dies (`outbox.dead`).
        public var webhooks: @Sendable (TenantID) -> [WebhookEndpoint] = { _ in [] }

        public init() {}
    }

    public let store: OutboxStore
    public let deliverer: any OutboxDeliverer
    public let clock: any RoomClock
    public let configuration: Configuration
    public let logger: Logger
    /// Which tenants' destinations (provider kind, webhook endpoint) failed a delivery here lately.
    private let failing = FailingProviders()

    public init(store: OutboxStore, deliverer: any OutboxDeliverer, clock: any RoomClock, configuration: Configuration = .init(), logger: Logger) {
        self.store = store
        self.deliverer = deliverer
        self.clock = clock
        self.configuration = configuration
        self.logger = logger
    }

    /// Two streams, each claiming as slots free up rather than a batch at a
    /// time: the IM and live effects, and the webhook deliveries. Why (#27):
    /// one batch of 100 waited for its slowest delivery (up to 15 s) before
    /// the next claim, so one tenant's slow receiver, or a burst of test
    /// events, held every tenant's IM effects: a quiz question reached its
    /// players after most of its 20 s answer window. Now effects never wait
    /// behind webhooks, and within a stream no destination (a tenant's IM, a
    /// webhook endpoint) or tenant takes more than its share of slots.
    public func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { await stream(webhooks: false, limits: configuration.effects) }
            group.addTask { await stream(webhooks: true, limits: configuration.webhookLimits) }
        }
    }

    /// How many deliveries of a stream may be in flight: in all, to one
    /// destination, for one tenant; and the floor every tenant keeps (#41:
    /// per-tenant caps were shares, not isolation: four tenants with slow
    /// receivers held all 64 webhook slots, and a fifth tenant's deliveries
    /// waited for one to time out). Past `total`, up to `reserve` more
    /// slots go only to tenants with fewer than `floor` in flight.
    public struct Limits: Sendable {
        public var total: Int
        public var perDestination: Int
        public var perTenant: Int
        public var floor: Int
        public var reserve: Int

        public init(total: Int, perDestination: Int, perTenant: Int, floor: Int = 1, reserve: Int = 8) {
            self.total = total
            self.perDestination = perDestination
            self.perTenant = perTenant
            self.floor = floor
            self.reserve = reserve
        }
    }

    private func stream(webhooks: Bool, limits: Limits) async {
        let lease = configuration.deliveryTimeout + 5
        await withTaskGroup(of: String?.self) { group in
            var load = InFlight()
            var waiting = false, woken = true
            while !Task.isShuttingDownGracefully && !Task.isCancelled {
                // Claim when woken (a signal, the poll) or when a tenth of the
                // slots are free: not one claim per finished delivery.
                let free = limits.total - load.total
                let spare = limits.total + limits.reserve - load.total
                if free <= 0 && spare > 0 && woken {
                    // The shared slots are taken: only tenants below their
                    // floor claim, from the reserve.
                    woken = false
                    do {
                        let claim = OutboxStore.Claim(webhooks: webhooks, busy: load.busy(limits.perDestination),
                                                      busyTenants: load.busyTenants(limits.floor))
                        let entries = try await store.claimDue(now: clock.now(), lease: lease, limit: min(spare, limits.floor),
                                                               tenants: configuration.tenants, claim: claim)
                        for entry in entries {
                            let destination = load.add(entry)
                            group.addTask {
                                await deliver(entry)
                                return destination
                            }
                        }
                    } catch {
                        logger.error("outbox dispatch failed", metadata: ["error": "\(LoggableError.describe(error))"])
                    }
                } else if free > 0 && (woken || free >= max(1, limits.total / 10)) {
                    woken = false
                    do {
                        let claim = OutboxStore.Claim(webhooks: webhooks, busy: load.busy(limits.perDestination),
                                                      busyTenants: load.busyTenants(limits.perTenant))
                        // A claim takes at most one destination's share, so
                        // no destination exceeds its share by more than one
                        // claim's worth before it counts as busy.
                        let take = min(free, limits.perDestination)
                        let entries = try await store.claimDue(now: clock.now(), lease: lease, limit: take, tenants: configuration.tenants, claim: claim)
                        for entry in entries {
                            let destination = load.add(entry)
                            group.addTask {
                                await deliver(entry)
                                return destination
                            }
                        }
                        if entries.count == take { continue }
                    } catch {
                        logger.error("outbox dispatch failed", metadata: ["error": "\(LoggableError.describe(error))"])
                    }
                }
                if !waiting {
                    waiting = true
                    group.addTask { [configuration] in
                        // Effects are woken by every instance's commits (the
                        // outbox's NOTIFY, `OutboxWakeFollower`); webhooks poll.
                        // Neither wait holds a graceful shutdown back.
                        if webhooks {
                            try? await cancelWhenGracefulShutdown { try await Task.sleep(for: configuration.pollInterval) }
                        } else {
                            await withGracefulShutdownHandler {
                                await configuration.signal.wait(timeout: configuration.pollInterval)
                            } onGracefulShutdown: {
                                configuration.signal.wake()
                            }
                        }
                        return nil
                    }
                }
                guard let next = await group.next() else { continue }
                if let destination = next {
                    load.remove(destination)
                } else {
                    waiting = false
                    woken = true
                }
            }
            group.cancelAll()
        }
    }

    /// One claim-and-deliver round; returns how many entries it handled. In
    /// a cell's loop, that cell's entries; outside one, every cell's.
    @discardableResult
    public func dispatchOnce() async throws -> Int {
        try await store.database.inItsCellOrEach { try await dispatchCell() }
    }

    private func dispatchCell() async throws -> Int {
        let lease = configuration.deliveryTimeout + 5
        let entries = try await store.claimDue(now: clock.now(), lease: lease, limit: configuration.batchSize, tenants: configuration.tenants)
        guard !entries.isEmpty else { return 0 }
        await withTaskGroup(of: Void.self) { group in
            for entry in entries {
                group.addTask { await deliver(entry) }
            }
        }
        return entries.count
    }

    /// One attempt, as a span in the trace of the request that queued the
    /// entry (#30): the call, its bookkeeping statements and its log lines.
    private func deliver(_ entry: OutboxEntry) async {
        await withSpan("outbox.deliver \(entry.kind)", context: TraceCarrier.context(traceParent: entry.traceParent), ofKind: .producer) { span in
            span.attributes["roomkeeper.tenant"] = entry.tenantID
            span.attributes["roomkeeper.outbox.kind"] = entry.kind
            span.attributes["roomkeeper.outbox.attempt"] = entry.attempts
            await attempt(entry, span: span)
        }
    }

    private func attempt(_ entry: OutboxEntry, span: any Span) async {
        let started = ContinuousClock.now
        let destination = entry.effect?.lane ?? ""
        let outcome: String
        var statusCode: Int?
        do {
            statusCode = try await withTimeout(configuration.deliveryTimeout, operation: "outbox \(entry.kind)") { [deliverer] in
                try await deliverer.deliver(entry)
            }
            try await store.markDelivered(entry, attempt: attempt(since: started, statusCode: statusCode, error: nil))
            outcome = "delivered"
            if let wake = failing.succeeded(entry.tenantID, entry.kind, destination) { await wakeBacklog(entry, lane: destination, limit: wake) }
        } catch {
            let permanent = error is PermanentDeliveryError
            statusCode = (error as? ReceiverRefused)?.statusCode
            if !permanent { failing.failed(entry.tenantID, entry.kind, destination) }
            let exhausted = entry.attempts >= configuration.maxAttempts
            let retryAt = (permanent || exhausted) ? nil : clock.now().addingTimeInterval(backoff(afterAttempt: entry.attempts))
            outcome = retryAt == nil ? "dead" : "retry"
            span.recordError(error)
            span.attributes["roomkeeper.outbox.outcome"] = outcome
            logger.warning("outbox delivery failed", metadata: [
                "tenant": "\(entry.tenantID)", "outbox": "\(entry.id)", "kind": "\(entry.kind)",
                "attempt": "\(entry.attempts)", "outcome": "\(outcome)", "error": "\(error)",
            ])
            do {
                try await store.markFailed(entry, attempt: attempt(since: started, statusCode: statusCode, error: String(describing: error)),
                                           retryAt: retryAt, deadLetterWebhooks: configuration.webhooks(entry.tenantID))
            } catch {
                // The lease runs out and the entry is claimed again: at least once still holds.
                logger.error("could not record outbox failure", metadata: ["outbox": "\(entry.id)", "error": "\(error)"])
            }
        }
        Self.deliveries.value(for: [entry.kind, outcome]) {
            Counter(label: "roomkeeper_outbox_deliveries_total", dimensions: [("kind", entry.kind), ("outcome", outcome)])
        }.increment()
        Self.deliverySeconds.value(for: entry.kind) {
            Timer(label: "roomkeeper_outbox_delivery_seconds", dimensions: [("kind", entry.kind)], preferredDisplayUnit: .seconds)
        }.recordInterval(since: started)
        if entry.kind == "webhook" {
            // By class, not code: a handful of series whatever receivers answer.
            // Tenant and endpoint are configured names (a few each): an
            // endpoint that keeps failing is an alert (ops/prometheus/alerts.yml).
            let answered = statusCode.map { "\($0 / 100)xx" } ?? "none"
            let endpoint = entry.webhookEndpoint ?? "-"
            Self.webhookAttempts.value(for: [entry.tenantID, endpoint, outcome, answered]) {
                Counter(label: "roomkeeper_webhook_attempts_total", dimensions: [
                    ("tenant", entry.tenantID), ("endpoint", endpoint), ("outcome", outcome), ("status", answered),
                ])
            }.increment()
        }
    }

    // Each series' handle made once (`MadeOnce`), keyed by its label values.
    private static let deliveries = MadeOnce<[String], Counter>()
    private static let deliverySeconds = MadeOnce<String, Timer>()
    private static let webhookAttempts = MadeOnce<[String], Counter>()

    private func attempt(since started: ContinuousClock.Instant, statusCode: Int?, error: String?) -> OutboxStore.Attempt {
        let elapsed = ContinuousClock.now - started
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return OutboxStore.Attempt(at: clock.now(), statusCode: statusCode, latencyMS: Int(milliseconds), error: error.map { String($0.prefix(2000)) })
    }

    /// The destination answered again after failing here: up to `limit` of
    /// the entries that wait out a backoff become due now (a half-open probe;
    /// see `FailingProviders`); when fewer were waiting, it is healthy again.
    private func wakeBacklog(_ entry: OutboxEntry, lane: String, limit: Int) async {
        do {
            let woken = try await store.wakeBackedOff(entry.tenantID, kind: entry.kind, lane: lane, now: clock.now(), limit: limit)
            if woken < limit { failing.drained(entry.tenantID, entry.kind, lane) }
            if woken > 0 {
                logger.info("outbox provider recovered; backlog due now", metadata: [
                    "tenant": "\(entry.tenantID)", "kind": "\(entry.kind)", "entries": "\(woken)",
                ])
                configuration.signal.wake()
            }
        } catch {
            // They are retried when their backoff ends, as before.
            logger.warning("could not wake the outbox backlog", metadata: ["tenant": "\(entry.tenantID)", "error": "\(LoggableError.describe(error))"])
        }
    }

    /// base · 2^(attempt-1), capped, with up to 20 % jitter so retries spread out.
    func backoff(afterAttempt attempt: Int, jitter: Double = Double.random(in: 0.8...1.0)) -> TimeInterval {
        let exponential = configuration.baseBackoff * pow(2, Double(max(0, attempt - 1)))
        let capped = min(configuration.maxBackoff, exponential)
        return capped * jitter
    }
}


/// Destinations (tenant, kind, lane) whose deliveries failed on this
/// dispatcher, and how far their recovery has got. Per instance: another
/// instance that saw no failure does not wake, and the one that did wakes on
/// its next success.
///
/// A half-open probe (#27): the first success after failures wakes 10 of the
/// entries backing off; when as many more have succeeded, twice as many are
/// woken, and so on until the backlog is out. A failure starts over. Why: a
/// receiver or vendor that answers one call in five had its whole backlog
/// woken by each success, which burned every entry's attempts (the budget
/// of at least 24 h of retries) in minutes and hammered it; now each
/// success after a failure costs at most 10 early attempts, and a real
/// recovery still drains its backlog in a few doubling rounds.
final class FailingProviders: Sendable {
    static let firstProbe = 10

    private enum Recovery {
        case failing
        case probing(woken: Int, succeeded: Int)
    }

    private let states = Mutex<[String: Recovery]>([:])

    private static func key(_ tenantID: TenantID, _ kind: String, _ lane: String) -> String {
        [tenantID, kind, lane].joined(separator: "\u{0}")
    }

    func failed(_ tenantID: TenantID, _ kind: String, _ lane: String = "") {
        states.withLock { $0[Self.key(tenantID, kind, lane)] = .failing }
    }

    /// How many backed-off entries to wake after this success, or nil.
    func succeeded(_ tenantID: TenantID, _ kind: String, _ lane: String = "") -> Int? {
        states.withLock { states -> Int? in
            let key = Self.key(tenantID, kind, lane)
            switch states[key] {
            case nil:
                return nil
            case .failing?:
                states[key] = .probing(woken: Self.firstProbe, succeeded: 0)
                return Self.firstProbe
            case .probing(let woken, let succeeded)?:
                guard succeeded + 1 >= woken else {
                    states[key] = .probing(woken: woken, succeeded: succeeded + 1)
                    return nil
                }
                states[key] = .probing(woken: woken * 2, succeeded: 0)
                return woken * 2
            }
        }
    }

    /// Fewer were waiting than were woken: the destination is healthy.
    func drained(_ tenantID: TenantID, _ kind: String, _ lane: String = "") {
        states.withLock { states in
            if case .probing? = states[Self.key(tenantID, kind, lane)] { states[Self.key(tenantID, kind, lane)] = nil }
        }
    }
}

/// What one stream has in flight, by destination and tenant.
struct InFlight {
    private(set) var total = 0
    private var destinations: [String: Int] = [:]
    private var tenants: [TenantID: Int] = [:]

    mutating func add(_ entry: OutboxEntry) -> String {
        let destination = OutboxStore.Claim.destination(entry.tenantID, lane: entry.effect?.lane ?? "")
        total += 1
        destinations[destination, default: 0] += 1
        tenants[entry.tenantID, default: 0] += 1
        return destination
    }

    mutating func remove(_ destination: String) {
        total -= 1
        destinations[destination, default: 1] -= 1
        if destinations[destination] == 0 { destinations[destination] = nil }
        let tenant = String(destination.prefix { $0 != "\u{1f}" })
        tenants[tenant, default: 1] -= 1
        if tenants[tenant] == 0 { tenants[tenant] = nil }
    }

    func busy(_ limit: Int) -> [String] { destinations.filter { $0.value >= limit }.map(\.key) }
    func busyTenants(_ limit: Int) -> [TenantID] { tenants.filter { $0.value >= limit }.map(\.key) }
}

import Foundation
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

    public func run() async throws {
        while !Task.isShuttingDownGracefully && !Task.isCancelled {
            var delivered = 0
            do {
                delivered = try await dispatchOnce()
            } catch {
                logger.error("outbox dispatch failed", metadata: ["error": "\(LoggableError.describe(error))"])
            }
            if delivered < configuration.batchSize {
                try? await cancelWhenGracefulShutdown { [configuration] in await configuration.signal.wait(timeout: configuration.pollInterval) }
            }
        }
    }

    /// One claim-and-deliver round; returns how many entries it handled.
    @discardableResult
    public func dispatchOnce() async throws -> Int {
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

    private func deliver(_ entry: OutboxEntry) async {
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
            if failing.recovered(entry.tenantID, entry.kind, destination) { await wakeBacklog(entry, lane: destination) }
        } catch {
            let permanent = error is PermanentDeliveryError
            statusCode = (error as? ReceiverRefused)?.statusCode
            if !permanent { failing.failed(entry.tenantID, entry.kind, destination) }
            let exhausted = entry.attempts >= configuration.maxAttempts
            let retryAt = (permanent || exhausted) ? nil : clock.now().addingTimeInterval(backoff(afterAttempt: entry.attempts))
            outcome = retryAt == nil ? "dead" : "retry"
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
        Counter(label: "roomkeeper_outbox_deliveries_total", dimensions: [("kind", entry.kind), ("outcome", outcome)]).increment()
        Timer(label: "roomkeeper_outbox_delivery_seconds", dimensions: [("kind", entry.kind)], preferredDisplayUnit: .seconds)
            .recordInterval(since: started)
        if entry.kind == "webhook" {
            // By class, not code: a handful of series whatever receivers answer.
            let answered = statusCode.map { "\($0 / 100)xx" } ?? "none"
            Counter(label: "roomkeeper_webhook_attempts_total", dimensions: [("outcome", outcome), ("status", answered)]).increment()
        }
    }

    private func attempt(since started: ContinuousClock.Instant, statusCode: Int?, error: String?) -> OutboxStore.Attempt {
        let elapsed = ContinuousClock.now - started
        let milliseconds = elapsed.components.seconds * 1000 + elapsed.components.attoseconds / 1_000_000_000_000_000
        return OutboxStore.Attempt(at: clock.now(), statusCode: statusCode, latencyMS: Int(milliseconds), error: error.map { String($0.prefix(2000)) })
    }

    /// The provider answered again after failing here: the entries that wait
    /// out a backoff become due now, so the backlog goes out at once.
    private func wakeBacklog(_ entry: OutboxEntry, lane: String) async {
        do {
            let woken = try await store.wakeBackedOff(entry.tenantID, kind: entry.kind, lane: lane, now: clock.now())
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

extension Timer {
    func recordInterval(since start: ContinuousClock.Instant) {
        let elapsed = ContinuousClock.now - start
        let nanoseconds = elapsed.components.seconds * 1_000_000_000 + elapsed.components.attoseconds / 1_000_000_000
        recordNanoseconds(nanoseconds)
    }
}

/// The (tenant, kind) pairs whose deliveries failed on this dispatcher since
/// their last success. Per instance: another instance that saw no failure
/// does not wake, and the one that did wakes on its next success.
final class FailingProviders: Sendable {
    private let pairs = Mutex<Set<String>>([])

    func failed(_ tenantID: TenantID, _ kind: String, _ lane: String = "") {
        _ = pairs.withLock { $0.insert([tenantID, kind, lane].joined(separator: "\u{0}")) }
    }

    /// True once after failures, when a delivery of that destination succeeds.
    func recovered(_ tenantID: TenantID, _ kind: String, _ lane: String = "") -> Bool {
        pairs.withLock { $0.remove([tenantID, kind, lane].joined(separator: "\u{0}")) != nil }
    }
}

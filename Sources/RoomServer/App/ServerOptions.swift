import Foundation
import RoomCore

/// How one server process runs. The executable fills it from the environment.
public struct ServerOptions: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    public var tenantsPath = "ops/tenants"
    /// nil: the admin API accepts tenant keys only.
    public var operatorKey: String?
    public var schemaRoot = "schema"
    /// Schema folders beyond `core` and the plugins' own (providers').
    public var extraSchemaFolders: [String] = []
    public var sweeper = ExpirySweeper.Configuration()
    public var dispatcher = OutboxDispatcher.Configuration()
    /// The operator's webhook endpoint: every tenant's `outbox.dead`.
    public var operatorWebhook: WebhookEndpoint?
    /// A connection's first request head must arrive within this (slowloris).
    public var requestHeadSeconds: Int64 = 10
    /// A keep-alive connection with no request for this long is closed.
    public var idleSeconds: Int64 = 60
    /// The longest a request waits on PostgreSQL (leases and statements)
    /// before it is answered "unavailable, try again" (#27).
    public var requestSeconds: Double = 10
    /// Where webhooks may go beyond public addresses (`ROOMKEEPER_WEBHOOK_ALLOW`).
    public var webhookAddresses: WebhookAddressPolicy = .strict
    /// How long a request refused past its budget waits before its 429 is
    /// sent (#41): a flood of retries then costs neither side CPU. Measured
    /// in ops/bench figure 6: without it, one tenant's 64 connections of
    /// refused requests (11,000 a second) took the cores from every other
    /// tenant (B's p99 6.9 ms → 2,016 ms).
    public var throttledAnswerDelay: Duration = .seconds(1)
    /// Client requests this instance runs at once (`ROOMKEEPER_REQUEST_SLOTS`),
    /// shared by tenant as the pool's connections are (`FairPermits`: one
    /// tenant alone at most three quarters, an equal share while others are
    /// active, waiting tenants served fewest-first); past them a request
    /// waits in memory (#41). Budgets bound how much a tenant is admitted a
    /// second, not how much of the cores it holds.
    /// Twice the cores (4 on our 2): a request mostly runs on a core (ours
    /// or PostgreSQL's), so more at once only queues in the kernel, where no
    /// tenant's turn can be chosen. ops/bench figure 6, the same build, two
    /// runs each: 4 slots, B's p99 ×1.26-1.63 (logins) and ×1.71-1.94
    /// (flows); 8 slots, ×1.33-7.31 and ×2.73-2.95. A tenant alone, 4
    /// against 8: flows 700 against 633 a second, creates 816 against 917.
    public var requestSlots = max(4, 2 * ProcessInfo.processInfo.activeProcessorCount)
    /// How often the usage rollup folds each tenant's events and counts (#30).
    public var usageInterval: Duration = .seconds(30)
    /// WebSocket connections this instance holds at most.
    public var maxSockets = 10_000
    /// Local IM sockets waiting to log in, at most: per client address, per
    /// tenant and on the instance (`LoginWaitingRoom`, #41).
    public var loginWaiting = LoginWaitingLimits()
    /// Proxies whose `X-Forwarded-For` names the client (`ROOMKEEPER_TRUSTED_PROXIES`).
    public var trustedProxies: [String] = []
    /// `ROOMKEEPER_METRICS_KEY`: a scrape that sends it as a Bearer key also
    /// gets the series labelled by tenant (#30); without it /metrics names no
    /// tenant (anyone may scrape it).
    public var metricsKey: String?
    /// `ROOMKEEPER_DATA_KEY`: 64 hex digits sealing secrets kept at rest.
    public var dataKeyHex: String?

    public init() {}
}

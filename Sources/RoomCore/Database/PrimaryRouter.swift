import Logging
import Metrics
import PostgresNIO
import ServiceLifecycle
import Synchronization

/// Follows the primary of a replicated PostgreSQL named by a multi-host URL
/// (`postgres://u@h1:p1,h2:p2/db`, what `pg_autoctl show uri` prints), the
/// way libpq's `target_session_attrs=read-write` does, without a restart.
///
/// PostgresNIO's pool connects to one host, so there is a pool per host and
/// every lease goes to the active one. The active host is checked once a
/// second, at once when a query fails as if the database were away, and
/// every 100 ms while no host accepts writes (a failover under way), on
/// a connection of its own (a pool stuck on a dead host cannot tell): it must
/// answer and say `transaction_read_only = off`. If not, the hosts are tried
/// in the URL's order and the first that accepts writes becomes active.
/// pg_auto_failover decides which host that is; this only finds it.
public final class PrimaryRouter: Service, Sendable {
    public let hosts: [DatabaseURL.Host]
    private let clients: [PostgresClient]
    private let active = Atomic<Int>(0)
    private let suspected = Atomic<Bool>(false)
    /// The active host's last check got no answer in time.
    private let currentHung = Atomic<Bool>(false)
    private let logger: Logger
    private let checkInterval: Duration
    private let probeSeconds: Double

    public init(endpoint: DatabaseURL.Endpoint, logger: Logger, checkInterval: Duration = .seconds(1), probeSeconds: Double = 2) {
        hosts = endpoint.hosts
        clients = endpoint.hosts.map { PostgresClient(configuration: $0.pool, backgroundLogger: logger) }
        self.logger = logger
        self.checkInterval = checkInterval
        self.probeSeconds = probeSeconds
    }

    /// Failovers this instance followed (#30's dashboard and alerts); /metrics
    /// makes it before its first scrape, so the series is there at 0 before
    /// the first failover.
    public static var primaryChanges: Counter { Counter(label: "roomkeeper_database_primary_changes_total") }

    /// The pool of the host that accepted writes when last checked.
    public var client: PostgresClient { clients[active.load(ordering: .acquiring)] }
    public var activeHost: DatabaseURL.Host { hosts[active.load(ordering: .acquiring)] }

    /// A query failed as if the database were away: check now, not in a second.
    public func suspect() {
        guard hosts.count > 1 else { return }
        suspected.store(true, ordering: .releasing)
    }

    public func run() async {
        await withDiscardingTaskGroup { group in
            for client in clients { group.addTask { await client.run() } }
            if hosts.count > 1 {
                group.addTask { await cancelWhenGracefulShutdown { await self.watch() } }
            }
        }
    }

    private func watch() async {
        var sinceCheck = Duration.zero, searching = false
        let tick = Duration.milliseconds(100)
        while !Task.isCancelled {
            // While no host accepts writes (a failover under way), every tick.
            if searching || sinceCheck >= checkInterval || suspected.exchange(false, ordering: .acquiringAndReleasing) {
                searching = !(await followPrimary())
                sinceCheck = .zero
            }
            try? await Task.sleep(for: tick)
            sinceCheck += tick
        }
    }

    /// Keeps the active host if it still accepts writes, else moves to the
    /// first host in the URL's order that does; false when none does.
    ///
    /// Once the active host has failed to answer a check in time (a primary
    /// that hangs), the others are asked first: each check of a hung host
    /// waits the whole probe (2 s), and the standby's promotion would be
    /// noticed that much later.
    @discardableResult
    public func followPrimary() async -> Bool {
        guard hosts.count > 1 else { return true }
        let current = active.load(ordering: .acquiring)
        let hung = currentHung.load(ordering: .acquiring)
        if !hung {
            switch await acceptsWrites(hosts[current]) {
            case true?: return true
            case nil: currentHung.store(true, ordering: .releasing)
            case false?: break
            }
        }
        for index in hosts.indices where index != current {
            if await acceptsWrites(hosts[index]) == true {
                active.store(index, ordering: .releasing)
                currentHung.store(false, ordering: .releasing)
                logger.notice("following the primary", metadata: ["from": "\(hosts[current].name)", "to": "\(hosts[index].name)"])
                Self.primaryChanges.increment()
                return true
            }
        }
        if hung, let answer = await acceptsWrites(hosts[current]) {
            currentHung.store(false, ordering: .releasing)
            return answer
        }
        return false
    }

    /// nil when the host cannot be reached in time.
    private func acceptsWrites(_ host: DatabaseURL.Host) async -> Bool? {
        let logger = logger
        return try? await withTimeout(probeSeconds, operation: "checking \(host.name)") {
            let connection = try await PostgresConnection.connect(configuration: host.connection, id: Int.random(in: 1...Int(Int32.max)), logger: logger)
            defer { Task { try? await connection.close() } }
            let rows = try await connection.run("SHOW transaction_read_only", logger: logger).collect()
            return try rows.first?.decode(String.self) == "off"
        }
    }
}

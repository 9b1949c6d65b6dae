import Foundation
import Logging
import PostgresNIO
import Synchronization

/// The one way RoomCore reaches PostgreSQL: a pooled client plus the logger
/// its queries report to. Built from a URL it follows the primary among the
/// URL's hosts (`PrimaryRouter`); built from a client it uses that one.
public struct Database: Sendable {
    private let fixedClient: PostgresClient?
    private let fixedConnection: PostgresConnection.Configuration?
    /// Set when the database is reached through a multi-host URL.
    public let router: PrimaryRouter?
    public let logger: Logger
    /// How long a request waits for a pooled connection before it fails with
    /// `DatabaseUnavailable`. The pool itself would wait for ever while
    /// PostgreSQL is down or failing over: requests would hang.
    public let leaseSeconds: Double
    /// Bounds every waiting lease (`LeaseWatch`).
    private let leaseWatch: LeaseWatch
    /// The pool's connections as permits shared fairly among tenants (#41),
    /// as many as the pool has, so the pool itself never queues. Why: first
    /// come, first served, one tenant's 64 requests in flight (ops/bench
    /// figure 6) queued ahead of every other tenant's, and B's p99 went from
    /// 4 ms to 94 ms although B's median did not move.
    let shares: FairPermits
    /// The other cells a lease may go to, by its tenant (#43); nil: one cell.
    public private(set) var cells: Cells?

    /// `connections`: the pool's `maximumConnections` (PostgresNIO's default is 20).
    public init(client: PostgresClient, logger: Logger, dedicatedConnection: PostgresConnection.Configuration? = nil, leaseSeconds: Double = 5,
                connections: Int = 20) {
        shares = FairPermits(capacity: connections)
        fixedClient = client
        fixedConnection = dedicatedConnection
        router = nil
        self.logger = logger
        self.leaseSeconds = leaseSeconds
        leaseWatch = LeaseWatch(router: nil)
    }

    /// The router's pools must run: pass `router` to the service group.
    public init(router: PrimaryRouter, logger: Logger, leaseSeconds: Double = 5) {
        shares = FairPermits(capacity: router.hosts[0].pool.options.maximumConnections)
        fixedClient = nil
        fixedConnection = nil
        self.router = router
        self.logger = logger
        self.leaseSeconds = leaseSeconds
        leaseWatch = LeaseWatch(router: router)
    }

    /// This database as the first cell of `cells`: each lease goes to the
    /// cell of the tenant it serves (`Cells`).
    public func routed(by cells: Cells) -> Database {
        var routed = self
        routed.cells = cells
        return routed
    }

    /// Cell `name`'s own database (its LISTEN connection, its pool); this
    /// one for the first cell, or without cells.
    public func inCell(_ name: String) -> Database {
        cells?.others[name]?.database ?? self
    }

    /// Runs `body` once per cell, its leases in that cell (`LeaseOwner.cell`),
    /// one cell after another; once without cells. For an instance's own
    /// statements across tenants that no cell's service loop runs (#43).
    public func inEachCell<T: Sendable>(_ body: () async throws -> T) async throws -> [T] {
        guard let cells else { return [try await body()] }
        var results: [T] = []
        for name in cells.names {
            results.append(try await LeaseOwner.$cell.withValue(name) { try await body() })
        }
        return results
    }

    /// `body`'s leases in the cell the task already works in (a cell's service
    /// loop, `LeaseOwner.cell`), else in every cell one after another: what a
    /// pass over tenants (`sweepOnce`, `dispatchOnce`, `purgeOnce`) is when
    /// called outside a cell's loop (#43: they served the first cell only).
    public func inItsCellOrEach(_ body: () async throws -> Int) async throws -> Int {
        if LeaseOwner.cell != nil { return try await body() }
        return try await inEachCell(body).reduce(0, +)
    }

    /// Runs `body` with its leases in the first cell whatever tenant the
    /// task serves: for what the whole deployment shares (the token and
    /// data keys), which must not be made in whichever cell asked first.
    public func inFirstCell<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        try await LeaseOwner.$cell.withValue(nil) { try await LeaseOwner.$tenant.withValue(nil) { try await body() } }
    }

    /// Reads the tenant directory again, with a tenant reload (SIGHUP, the
    /// admin API's, another instance's): a placement is learnt at the latest
    /// then. Nothing without cells.
    public func reloadCells() async throws {
        guard let cells else { return }
        // Never held by a fence: the directory is how a fence ends.
        try await inFirstCell { try await cells.load(from: self) }
    }

    /// The pool in use: the primary's, for a multi-host URL.
    public var client: PostgresClient { router?.client ?? fixedClient! }

    /// For connections of their own (LISTEN) outside the pool; nil: borrow from the pool.
    public var dedicatedConnection: PostgresConnection.Configuration? { router?.activeHost.connection ?? fixedConnection }

    /// Tells the router (if any) that a query failed as if the database were
    /// away, so it looks for a new primary now; returns the error unchanged.
    private func noticing(_ error: any Error) -> any Error {
        if DatabaseUnavailable.matches(error) { router?.suspect() }
        return error
    }

    /// Runs `body` on a pooled connection, waiting at most `leaseSeconds` for
    /// the pool to lend one. The pool itself would wait while PostgreSQL is
    /// restarting or failing over (it retries connecting for a minute before
    /// giving up), so without this bound requests would hang; with it they
    /// fail in seconds with `DatabaseUnavailable`. A lease still waiting when
    /// the router moves to another primary is asked of the new one's pool
    /// instead (`body` has not run). The wait ends by the request's deadline
    /// too; each statement `body` sends has its own (`DatabaseDeadline`).
    ///
    /// Before the pool, the lease takes a permit of its tenant's fair share
    /// (`FairPermits`, `LeaseOwner.tenant`); a lease taken while the task
    /// already holds one goes straight to the pool.
    public func withConnection<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        // A tenant being moved between cells (#43): its new leases wait for
        // the move's flip (then go to its new cell), and its leases are
        // counted, so the instance can tell the mover when none still runs.
        // A cell's own work (its sweeper, outbox, retention, IM upkeep) waits
        // too while a tenant of that cell is fenced: it writes the tenant's
        // rows in statements across tenants, and a write after the fence
        // would not reach the new cell.
        if let cells, !LeaseOwner.holding {
            if let cell = LeaseOwner.cell {
                try await waitOutFence(cells) { cells.fencesTenant(in: cell) }
                return try await cells.counting(Cells.workKey(cell)) { try await routedLease(body) }
            }
            if let tenant = LeaseOwner.tenant {
                try await waitOutFence(cells) { cells.isFenced(tenant) }
                return try await cells.counting(tenant) { try await routedLease(body) }
            }
        }
        return try await routedLease(body)
    }

    /// How long a lease of a fenced tenant waits for its move's flip before
    /// it is answered "try again" (`DatabaseUnavailable`, 503 with Retry-After): a move's fence lasts
    /// about a second (the catch-up, the checks, the flip), 5 s at most.
    static let fenceWait: Duration = .seconds(5)

    private func waitOutFence(_ cells: Cells, while fenced: () -> Bool) async throws {
        guard fenced() else { return }
        let until = ContinuousClock.now + Self.fenceWait
        while fenced() {
            guard ContinuousClock.now < until else { throw DatabaseUnavailable("a tenant is moving to another cell") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    private func routedLease<Result: Sendable>(_ body: (PostgresConnection) async throws -> Result) async throws -> Result {
        // Work of another cell, or a tenant of another cell: that cell's
        // pool, shares and primary.
        if let cells, let cell = LeaseOwner.cell.map({ cells.others[$0]?.database }) ?? LeaseOwner.tenant.flatMap(cells.database(for:)) {
            return try await cell.withConnection(body)
        }
        let deadline = DatabaseDeadline.until(atMost: leaseSeconds)
        let started = ContinuousClock.now, leased = LeaseFlag()
        PoolGauges.shared.startedWaiting()
        // A wait that ends without a connection is counted out here.
        defer { if !leased.isSet { PoolGauges.shared.stoppedWaiting(since: started, lent: false) } }
        let owner = LeaseOwner.holding ? nil : LeaseOwner.tenant ?? ""
        do {
            if let owner {
                do {
                    try await shares.acquire(for: owner, until: deadline)
                } catch is FairPermits.TimedOut {
                    throw Self.failure(.timedOut, seconds: leaseSeconds)
                }
            }
            defer { if let owner { shares.release(for: owner) } }
            return try await LeaseOwner.$holding.withValue(true) {
                while true {
                    do {
                        return try await withConnection(from: client, until: deadline, started: started, leased: leased, body)
                    } catch is Rerouted {
                        continue
                    }
                }
            }
        } catch {
            throw noticing(error)
        }
    }

    private func withConnection<Result: Sendable>(
        from client: PostgresClient, until deadline: ContinuousClock.Instant, started: ContinuousClock.Instant, leased: LeaseFlag,
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let seconds = leaseSeconds, router = router, watch = leaseWatch
        return try await withoutActuallyEscaping(body) { body in
            // The group ends before this function returns, so `body` never
            // outlives it, and only the lending task calls it. The lending
            // runs in a child task so that the watch can cancel it without
            // cancelling the request.
            let work = UncheckedSendableBox(body)
            return try await withThrowingTaskGroup(of: Result.self) { group in
                group.addTask {
                    let id = watch.watch(until: deadline, client: client)
                    do {
                        while true {
                            let lent: Result? = try await client.withConnection { connection in
                                // PostgresNIO's pool can lend a connection whose channel
                                // closed before the pool heard of it, and a query written
                                // to a closed channel is dropped and its answer awaited
                                // for ever (postgres-nio#487, since reverted): seen as a
                                // request hanging through a PostgreSQL restart. Such a
                                // connection is handed back and another one asked for.
                                guard !connection.isClosed else { return nil }
                                // Lent as the watch ended the wait: handed back unused.
                                if let outcome = watch.settle(id) { throw Self.failure(outcome, seconds: seconds) }
                                leased.set()
                                PoolGauges.shared.stoppedWaiting(since: started, lent: true)
                                defer { PoolGauges.shared.returned() }
                                guard let router else { return try await work.value(connection) }
                                return try await DatabaseDeadline.$lease.withValue(.init(router: router, client: client)) {
                                    try await work.value(connection)
                                }
                            }
                            if let lent { return lent }
                            try await Task.sleep(for: .milliseconds(5))  // time for the pool to drop it
                        }
                    } catch {
                        // The watch cancelled the wait: its reason, not the cancellation.
                        if let outcome = watch.settle(id) { throw Self.failure(outcome, seconds: seconds) }
                        throw error
                    }
                }
                guard let result = try await group.next() else { throw CancellationError() }
                return result
            }
        }
    }

    private static func failure(_ outcome: LeaseWatch.Outcome, seconds: Double) -> any Error {
        switch outcome {
        case .rerouted: Rerouted()
        case .timedOut: DatabaseUnavailable(TimeoutError(operation: "leasing a database connection", seconds: seconds).description)
        }
    }

    /// Runs `body` on a connection of its own, closed when `body` ends or
    /// the task is cancelled (which also ends a LISTEN sequence).
    public func withDedicatedConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        guard let configuration = dedicatedConnection else {
            return try await client.withConnection { try await body($0) }
        }
        let connection = try await PostgresConnection.connect(configuration: configuration, id: Int.random(in: 1...Int(Int32.max)), logger: logger)
        return try await withTaskCancellationHandler {
            defer { Task { try? await connection.close() } }
            return try await body(connection)
        } onCancel: {
            Task { try? await connection.close() }
        }
    }

    /// Runs `body` in one transaction. Unlike PostgresNIO's `withTransaction`,
    /// the error thrown by `body` reaches the caller unchanged, so typed domain
    /// errors (`RoomError`) survive the rollback; and a COMMIT that PostgreSQL
    /// answered with ROLLBACK is an error, not a success.
    public func transaction<Result: Sendable>(
        _ body: (PostgresConnection) async throws -> Result
    ) async throws -> Result {
        let logger = logger
        return try await withConnection { connection in
            try await connection.inTransactionBlock(logger: logger) { try await body(connection) }
        }
    }

    /// Runs a query on a pooled connection and reads every row. Draining the
    /// stream is what returns the connection to the pool, so results are never
    /// left half-read (our queries return few rows).
    @discardableResult
    public func query(_ query: PostgresQuery, function: String = #function, file: String = #fileID) async throws -> [PostgresRow] {
        let logger = logger
        return try await withConnection { try await $0.run(query, logger: logger, function: function, file: file).collect() }
    }
}

extension Array where Element == PostgresRow {
    /// Every row decoded as a tuple of columns.
    public func decode<each Column: PostgresDecodable>(_ type: (repeat each Column).Type) throws -> [(repeat each Column)] {
        try map { try $0.decode(type) }
    }
}

/// Carries a value the compiler cannot prove Sendable across a task boundary
/// where the code guarantees it is used by one task at a time.
struct UncheckedSendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

/// A lease was still waiting when the router moved to another primary.
private struct Rerouted: Error {}

/// Set once the pool has lent the connection (the wait is then counted as lent).
private final class LeaseFlag: Sendable {
    private let value = Atomic<Bool>(false)
    func set() { value.store(true, ordering: .releasing) }
    var isSet: Bool { value.load(ordering: .acquiring) }
}

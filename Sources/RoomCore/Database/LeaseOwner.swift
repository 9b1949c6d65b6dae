import Foundation

/// Who a database lease is for (#41, "the pool is shared fairly"): the
/// tenant a request serves, bound by the HTTP layer for the request's whole
/// task; nil is the instance's own work (sweeper, outbox, retention).
public enum LeaseOwner {
    @TaskLocal public static var tenant: TenantID?
    /// The cell an instance's own work serves (#43: the sweeper, the outbox,
    /// retention, usage and LISTEN run once per cell); it decides a lease's
    /// cell before `tenant` does. nil: by `tenant`, else the first cell.
    @TaskLocal public static var cell: String?
    /// Set while the task holds a permit, so a lease taken inside another
    /// (a read inside a transaction's body) does not wait behind itself.
    @TaskLocal static var holding = false
}

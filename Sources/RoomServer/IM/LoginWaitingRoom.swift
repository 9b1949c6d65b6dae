import Foundation
import RoomCore
import Synchronization

/// The local IM's sockets that have not logged in yet (#41): bounded per
/// client address (IPv6 by its /64), per tenant and per instance, so a
/// stranger's idle sockets cannot shut the logins of others out. Before,
/// one process-wide gate of 1,000 took the newest socket's place away:
/// 1,000 idle upgrades from one address refused every tenant's logins for
/// as long as they stayed.
///
/// - Past its address's or its tenant's share a new socket is refused
///   (4029): only that address or tenant waits.
/// - Past the instance's limit the oldest waiting socket is closed to make
///   room, not the newest: an honest client sends its login frame as soon
///   as it connects and waits milliseconds, so the oldest waiting is the one
///   least likely to log in.
final class LoginWaitingRoom: Sendable {
    typealias Limits = LoginWaitingLimits

    struct Ticket: Sendable {
        let id: UInt64
    }

    enum Admission {
        case admitted(Ticket)
        case refused(reason: String)
    }

    private struct Waiting {
        let address: String
        let tenant: String
        /// Closes the socket; run outside the lock.
        let evict: @Sendable () -> Void
    }

    private struct State {
        var next: UInt64 = 0
        /// By ticket id: ids grow, so the smallest is the oldest.
        var waiting: [UInt64: Waiting] = [:]
        var perAddress: [String: Int] = [:]
        var perTenant: [String: Int] = [:]

        mutating func remove(_ id: UInt64) -> Waiting? {
            guard let gone = waiting.removeValue(forKey: id) else { return nil }
            perAddress[gone.address, default: 1] -= 1
            if perAddress[gone.address] == 0 { perAddress[gone.address] = nil }
            perTenant[gone.tenant, default: 1] -= 1
            if perTenant[gone.tenant] == 0 { perTenant[gone.tenant] = nil }
            return gone
        }
    }

    let limits: Limits
    private let state = Mutex(State())

    init(limits: Limits = Limits()) {
        self.limits = limits
    }

    var count: Int { state.withLock { $0.waiting.count } }

    /// Admits a socket from `address` of `tenant`, closing the oldest
    /// waiting socket if the instance is full; `evict` closes this one if it
    /// is the oldest later.
    func enter(address: String, tenant: String, evict: @escaping @Sendable () -> Void) -> Admission {
        let subject = AddressSubject.of(address)
        let (admission, evicted): (Admission, Waiting?) = state.withLock { state in
            if state.perAddress[subject, default: 0] >= limits.perAddress {
                return (.refused(reason: "too many sockets waiting to log in from this address; try again"), nil)
            }
            if state.perTenant[tenant, default: 0] >= limits.perTenant {
                return (.refused(reason: "too many sockets waiting to log in to this tenant; try again"), nil)
            }
            var evicted: Waiting?
            if state.waiting.count >= limits.total, let oldest = state.waiting.keys.min() {
                evicted = state.remove(oldest)
            }
            state.next += 1
            state.waiting[state.next] = Waiting(address: subject, tenant: tenant, evict: evict)
            state.perAddress[subject, default: 0] += 1
            state.perTenant[tenant, default: 0] += 1
            return (.admitted(Ticket(id: state.next)), evicted)
        }
        evicted?.evict()
        return admission
    }

    /// The socket logged in, failed to, or was closed.
    func leave(_ ticket: Ticket) {
        _ = state.withLock { $0.remove(ticket.id) }
    }
}

/// How many local IM sockets may wait to log in (`LoginWaitingRoom`).
public struct LoginWaitingLimits: Sendable {
    /// 64: a school or an office behind one address reconnecting at once
    /// while logins queue on their tenant's admission lock
    /// (`LocalIMStormTests` queues 40 from one address).
    public var perAddress = 64
    /// 500: half the instance, so two tenants' storms both get in.
    public var perTenant = 500
    public var total = 1_000

    public init() {}
}

import Foundation
import Synchronization

/// Sessions this instance has lately seen live, for writes that check the
/// session in their own statement (#28, item 3): a create or a dissolve by
/// a client's `sid` sends one statement guarded by "this session is still
/// live and is this account's" instead of reading the session first. What
/// is kept here is only a guess: the guard decides, and a guess that fails
/// (the session was revoked or expired, maybe on another instance) costs
/// one statement that writes nothing, then the request is served as if
/// nothing were kept.
///
/// Keys are the token's SHA-256 (what the sessions table stores), never the
/// token. Bounded: at most `capacity` sessions, each kept at most
/// `maxAge` (a session's renewal or revocation is then read again).
public final class SessionCache: Sendable {
    struct Key: Hashable, Sendable {
        let tenantID: TenantID
        let pluginID: String
        let tokenHash: String
    }

    private struct Seen: Sendable {
        let account: Account
        let expiresAt: Date
        /// The session created a room here and has not dissolved one since:
        /// a create that replaces the account's open rooms would only find
        /// it and fail its guess (2 round trips wasted each time a client
        /// creates again without dissolving).
        var mayOwnOpenRoom = false
    }

    /// 10,000 sessions of about 200 bytes: 2 MB at most; ten minutes, long
    /// enough for a client's create → list → dissolve.
    private let memory: RecentMemory<Key, Seen>

    public init(capacity: Int = 10_000, maxAge: Duration = .seconds(600)) {
        memory = RecentMemory(capacity: capacity, maxAge: maxAge)
    }

    func remember(_ key: Key, account: Account, expiresAt: Date) {
        memory.remember(Seen(account: account, expiresAt: expiresAt), for: key)
    }

    /// The account a live session was last seen for, unless it has expired
    /// since or was seen too long ago; `mayOwnOpenRoom` as last marked.
    func recall(_ key: Key, now: Date) -> (account: Account, mayOwnOpenRoom: Bool)? {
        memory.recall(key) { $0.expiresAt > now }.map { ($0.account, $0.mayOwnOpenRoom) }
    }

    /// Marks whether the session's account may own an open room (a create
    /// by it, or a dissolve by it). Only a hint: guessing wrong either way
    /// costs a round trip, never an outcome.
    func mark(_ key: Key, mayOwnOpenRoom: Bool) {
        memory.update(key) { $0.mayOwnOpenRoom = mayOwnOpenRoom }
    }

    func forget(_ key: Key) {
        memory.forget([key])
    }
}

import Foundation

/// One account's advisory lock in its tenant (#29): a tenant ban takes it
/// exclusively for its transaction, and every transition that can let the
/// account into a room (a join, under the room's lock) takes it shared.
/// Without it, a join that checked for bans just before a tenant ban
/// committed could commit its membership after the ban had looked for the
/// rooms to take the account out of (TenantBanRaceTests: 6 of 6 racing
/// joins stayed, round after round).
public enum AccountLock {
    /// The lock's 64-bit key: an FNV-1a of the pair, computed here for both
    /// sides so they always agree (a collision only makes two accounts wait
    /// for each other's ban).
    public static func key(_ tenantID: TenantID, _ account: AccountID) -> Int64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "roomkeeper_account:\(tenantID)/\(account)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0100_0000_01b3
        }
        return Int64(bitPattern: hash)
    }
}

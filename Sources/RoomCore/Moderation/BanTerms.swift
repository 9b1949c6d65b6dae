import Foundation

/// What a ban asks (#42: a room's first ban of an account decided, then
/// written in the kick's one statement): until when, and why. The ban it
/// makes is decided without I/O; over a ban already in force, the
/// transaction weighs the two (`BanStore.insert`: the stricter stands, an
/// admin's replaces).
struct BanTerms: Sendable, Equatable {
    /// nil: until lifted.
    let until: Date?
    let reason: String

    /// The new ban (or mute), its id drawn by the read; `roomID` nil for a tenant's.
    func ban(kind: Ban.Kind = .ban, id: Int64, tenantID: TenantID, accid: AccountID, roomID: RoomID?, by actor: Actor, now: Date) -> Ban {
        Ban(kind: kind, tenantID: tenantID, id: id, accid: accid, roomID: roomID, reason: reason, expiresAt: until, createdAt: now,
            createdBy: actor.description, liftedAt: nil, liftedBy: nil)
    }
}

import Foundation
import PostgresNIO

/// What a ban asks (#42: a ban of an account decided, then written in one
/// statement): until when, and why. The ban it makes, and the terms over a
/// ban in force (`over`), are decided without I/O, for a room's ban or
/// mute and a tenant's ban alike; only a room's transaction (a plugin
/// without a `removal` or `muting`) weighs them in SQL (`BanStore.insert`,
/// the same rule).
struct BanTerms: Sendable, Equatable {
    /// nil: until lifted.
    let until: Date?
    let reason: String

    /// The new ban (or mute), its id drawn by the read; `roomID` nil for a tenant's.
    func ban(kind: Ban.Kind = .ban, id: Int64, tenantID: TenantID, accid: AccountID, roomID: RoomID?, by actor: Actor, now: Date) -> Ban {
        Ban(kind: kind, tenantID: tenantID, id: id, accid: accid, roomID: roomID, reason: reason, expiresAt: until, createdAt: now,
            createdBy: actor.description, liftedAt: nil, liftedBy: nil)
    }

    /// These terms asked over `standing`, the account's ban of the same kind
    /// and scope in force: the standing ban keeps its id, and takes these
    /// terms when an admin asks or they are at least as strict (no end, or
    /// an end no earlier); otherwise it stands as it is (#41: a host's
    /// 1-second kick replaced an admin's permanent ban). `BanStore.newTermsApply`
    /// is this rule in SQL, for the transaction's path; `BanTermsTests`
    /// holds the two to the same answers.
    func over(_ standing: Ban, by actor: Actor) -> Ban {
        let apply: Bool
        if actor == .admin {
            apply = true
        } else if let until {
            apply = standing.expiresAt.map { until >= $0 } ?? false
        } else {
            apply = true
        }
        guard apply else { return standing }
        var weighed = standing
        weighed.reason = reason
        weighed.expiresAt = until
        return weighed
    }
}

extension PostgresQuery.StringInterpolation {
    /// A decided write's guard that the account's ban (or mute) of the room
    /// in force is still the one it read: none, or `standing`. Any ban, mute
    /// or lift moves the room's version too; an expiry does not, so "in
    /// force" is asked at `now`.
    mutating func appendInterpolation(banOf account: AccountID, kind: Ban.Kind, in room: Room, isStill standing: Ban?, at now: Date) {
        appendLiteral("(SELECT coalesce(array_agg(b.ban_id), '{}') FROM bans b WHERE b.tenant_id = ")
        appendInterpolation(room.tenantID)
        appendLiteral(" AND b.accid = ")
        appendInterpolation(account)
        appendLiteral(" AND b.kind = ")
        appendInterpolation(kind.rawValue)
        appendLiteral(" AND b.room_id = ")
        appendInterpolation(room.id)
        appendLiteral(" AND b.lifted_at IS NULL AND (b.expires_at IS NULL OR b.expires_at > ")
        appendInterpolation(now)
        appendLiteral(")) = ")
        appendInterpolation(standing.map { [$0.id] } ?? [Int64]())
        appendLiteral("::bigint[]")
    }
}

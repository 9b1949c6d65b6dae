import Foundation
import PostgresNIO

/// A guess from `SessionCache` that a write's own statement checks (#28,
/// item 3): the session of `tokenHash` is live, of `pluginID`, and
/// `accid`'s, as `AccountStore.resolve` would have found it.
struct SessionGuess: Sendable {
    let tokenHash: String
    let pluginID: String
    let accid: AccountID
}

/// What a create by a client's session guessed and its statement checks:
/// the session, and with `ownerHasNoOpenRoom`, that its account has no open
/// room of the plugin (a create that first dissolves the creator's earlier
/// rooms has none to dissolve).
struct CreatorCheck: Sendable {
    let session: SessionGuess
    let ownerHasNoOpenRoom: Bool
}

extension PostgresQuery.StringInterpolation {
    /// A condition true only while the guessed session is live.
    mutating func appendInterpolation(live guess: SessionGuess, tenantID: TenantID, now: Date) {
        appendLiteral("EXISTS (SELECT 1 FROM sessions s JOIN accounts a ON a.tenant_id = s.tenant_id AND a.accid = s.accid WHERE s.tenant_id = ")
        appendInterpolation(tenantID)
        appendLiteral(" AND s.token_hash = ")
        appendInterpolation(guess.tokenHash)
        appendLiteral(" AND s.plugin_id = ")
        appendInterpolation(guess.pluginID)
        appendLiteral(" AND s.accid = ")
        appendInterpolation(guess.accid)
        appendLiteral(" AND s.revoked_at IS NULL AND s.expires_at > ")
        appendInterpolation(now)
        appendLiteral(")")
    }

    /// `true`, or the check's conditions.
    mutating func appendInterpolation(_ check: CreatorCheck?, tenantID: TenantID, now: Date) {
        guard let check else { return appendLiteral("true") }
        appendInterpolation(live: check.session, tenantID: tenantID, now: now)
        guard check.ownerHasNoOpenRoom else { return }
        appendLiteral(" AND NOT EXISTS (SELECT 1 FROM rooms o WHERE o.tenant_id = ")
        appendInterpolation(tenantID)
        appendLiteral(" AND o.owner = ")
        appendInterpolation(check.session.accid)
        appendLiteral(" AND o.plugin_id = ")
        appendInterpolation(check.session.pluginID)
        appendLiteral(" AND o.state = 'open')")
    }
}

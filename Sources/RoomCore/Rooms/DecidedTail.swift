import Foundation
import PostgresNIO

/// What a decided write (a change, a removal, a mute, a lift) writes after
/// its guard: the CTE that bumps the room's version only if it is still the
/// one read, returning `tenant_id`, `room_id` and `at`. Each part is written
/// only if the guard returned its row; the statement answers how many it
/// did (0: the room moved, nothing was written, the writer decides again)
/// and whether the chatroom's effects applied. One rendering for the four
/// statements that wrote it each by hand.
struct DecidedTail {
    /// The plugin's rows.
    var rows = RowsUpsert()
    /// The timeline's events and the outbox's side effects and webhooks.
    var outbox: OutboxRows
    var audit: AuditRow?
    /// The chatroom's effects the room's own database holds (the local IM).
    var chatroomEffects: ChatroomEffectsInStatement?
}

extension PostgresQuery.StringInterpolation {
    /// `, w AS (…), timeline AS (…), queued AS (…)[, audited AS (…)][, chatroom…]
    /// SELECT count(*)::int[, applied] FROM <guardCTE>`: follows the guard's CTE.
    mutating func appendInterpolation(decided tail: DecidedTail, after guardCTE: String, at now: Date) {
        appendInterpolation(rowsUpsert: tail.rows, from: guardCTE)
        appendLiteral(", timeline AS (")
        appendInterpolation(timelineInsert: tail.outbox, at: now, onlyIf: guardCTE)
        appendLiteral("), queued AS (")
        appendInterpolation(outboxInsert: tail.outbox, at: now, onlyIf: guardCTE)
        appendLiteral(")")
        appendInterpolation(auditCTE: tail.audit, onlyIf: guardCTE)
        appendInterpolation(chatroomEffects: tail.chatroomEffects, onlyIf: guardCTE, at: now)
        appendLiteral("\nSELECT count(*)::int")
        appendInterpolation(chatroomEffectsApplied: tail.chatroomEffects)
        appendLiteral(" FROM \(guardCTE)")
    }
}

import Foundation
import Metrics
import PostgresNIO

/// A room's IM effects applied by the statement that decided them (#28),
/// when the tenant's IM keeps its chatrooms in this database (the local IM)
/// and nothing of the room waits in its IM lane; otherwise the same
/// statement queues them in the outbox, behind what waits, as every
/// vendor's are. Why: each effect delivered by the outbox is its claim, the
/// IM's write and the delivered mark, each with its commit probe; in
/// `ops/bench` that was half of PostgreSQL's statement time in the
/// create→dissolve flow (the chatroom's close) and in the seat cycle (five
/// queue puts and notifications a cycle). Applied in the statement, the
/// effects also commit with the change: a seat's queue element can no
/// longer say something the seat does not.
struct ChatroomEffectsInStatement {
    enum Effects {
        /// Chatroom messages, queue puts and notifications, in order.
        case events([IMEffect])
        /// The chatroom's close, the room's only IM effect.
        case close(operator: AccountID, notifyExt: String?)
    }

    let chatrooms: any ChatroomsInRoomDatabase
    let tenantID: TenantID
    let roomID: RoomID
    let chatroom: String
    let lane: String
    let effects: Effects
    /// The same effects as outbox rows, written instead when the room's IM
    /// lane has entries waiting (they must reach the chatroom first).
    let queued: OutboxRows

    /// Takes the room's IM effects out of `messages` when all of them can be
    /// applied by a statement; nil, and `messages` as they were, otherwise
    /// (another IM call, a live effect in the same lane, another room's).
    static func take(from messages: inout [OutboxMessage], room: Room, chatrooms: (any ChatroomsInRoomDatabase)?, now: Date) -> Self? {
        // The provider binds its own tenant: only the room's tenant's may write here.
        guard let chatrooms, chatrooms.tenantID == room.tenantID, let chatroom = room.imChatroomID else { return nil }
        var taken: [OutboxMessage] = [], rest: [OutboxMessage] = [], events: [IMEffect] = []
        var close: (operator: AccountID, notifyExt: String?)?
        for message in messages {
            switch message.effect {
            case .event, .webhook:
                rest.append(message)
                continue
            case .live:
                return nil
            case .im(let effect):
                guard message.roomID == room.id else { return nil }
                switch effect {
                case .chatroomMessage(chatroom, _, _, _, _), .queuePut(chatroom, _, _, _), .notification:
                    events.append(effect)
                case .closeChatroom(chatroom, let op, let ext):
                    close = (op, ext)
                default:
                    return nil
                }
                taken.append(message)
            }
        }
        guard let lane = taken.first?.effect.lane else { return nil }
        let effects: Effects
        switch (close, events.isEmpty) {
        case (nil, false): effects = .events(events)
        // A close with messages before it would need two inserts into one
        // table kept in order: those wait in the outbox, as before.
        case (let close?, true): effects = .close(operator: close.operator, notifyExt: close.notifyExt)
        default: return nil
        }
        var queued = OutboxRows()
        queued.add(taken, tenantID: room.tenantID, webhooks: [], now: now)
        messages = rest
        return ChatroomEffectsInStatement(chatrooms: chatrooms, tenantID: room.tenantID, roomID: room.id, chatroom: chatroom, lane: lane,
                                          effects: effects, queued: queued)
    }
}

extension ChatroomEffectsInStatement {
    /// Counts the effects a committed statement applied with the outbox's
    /// deliveries, as `roomkeeper_outbox_deliveries_total{outcome="in_statement"}`
    /// (effects it queued instead are counted when the dispatcher delivers
    /// them): without it a local tenant's deliveries seemed to fall to none.
    /// Whether a guarded statement applied (`SELECT count(*)::int` of its
    /// `v`, then `chatroomEffectsApplied`): one row for the room it wrote,
    /// and the chatroom effects it wrote counted.
    static func applied(_ rows: [PostgresRow], _ inStatement: ChatroomEffectsInStatement?) throws -> Bool {
        guard let (written, applied) = try rows.decode((Int, Int).self).first else { return false }
        if applied > 0 { inStatement?.countApplied() }
        return written == 1
    }

    func countApplied() {
        for kind in queued.kinds {
            Self.appliedCounters.value(for: kind) {
                Counter(label: "roomkeeper_outbox_deliveries_total", dimensions: [("kind", kind), ("outcome", "in_statement")])
            }.increment()
        }
    }

    private static let appliedCounters = MadeOnce<String, Counter>()
}

extension PostgresQuery.StringInterpolation {
    /// `, n` as a selected column: how many times `effects` were applied by
    /// the statement (0 or 1; 0 when there are none).
    mutating func appendInterpolation(chatroomEffectsApplied effects: ChatroomEffectsInStatement?) {
        appendLiteral(effects == nil ? ", 0" : ", (SELECT count(*)::int FROM chatroom_gate)")
    }

    /// `, …` CTEs that apply `effects` if the CTE `guardCTE` returned a row
    /// and no outbox entry of the room waits in its IM lane, and queue them
    /// in the outbox if it returned a row and one does.
    mutating func appendInterpolation(chatroomEffects effects: ChatroomEffectsInStatement?, onlyIf guardCTE: String, at now: Date) {
        guard let effects else { return }
        appendLiteral(", chatroom_gate AS (SELECT 1 FROM \(guardCTE) WHERE NOT EXISTS (SELECT 1 FROM outbox o WHERE o.tenant_id = ")
        appendInterpolation(effects.tenantID)
        appendLiteral(" AND o.room_id = ")
        appendInterpolation(effects.roomID)
        appendLiteral(" AND o.lane = ")
        appendInterpolation(effects.lane)
        appendLiteral(" AND o.status = 'pending')), ")
        switch effects.effects {
        case .events(let list):
            effects.chatrooms.appendChatroomEffects(to: &self, list, chatroom: effects.chatroom, now: now, onlyIf: "chatroom_gate")
        case .close(let op, let ext):
            effects.chatrooms.appendChatroomClose(to: &self, effects.chatroom, operator: op, notifyExt: ext, now: now, onlyIf: "chatroom_gate")
        }
        appendLiteral(", chatroom_queued AS (SELECT 1 FROM \(guardCTE) WHERE NOT EXISTS (SELECT 1 FROM chatroom_gate)), queued_im AS (")
        appendInterpolation(outboxInsert: effects.queued, at: now, onlyIf: "chatroom_queued")
        appendLiteral(")")
    }
}

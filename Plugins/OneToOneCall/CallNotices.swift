import Foundation
import RoomKit

/// What the two accounts hear, as P2P notices through the tenant's IM (the
/// local IM's and the vendors' alike): `attach` is JSON with a `type`.
enum CallNotices {
    static func ring(_ call: Call, until: Date) -> OutboxMessage {
        notice(call, from: call.caller, to: call.callee, [
            "type": "ring", "roomId": .number(Double(call.roomID)), "caller": .string(call.caller),
            "ringsUntil": .number(Double(until.epochMilliseconds)),
        ])
    }

    static func accepted(_ call: Call) -> OutboxMessage {
        notice(call, from: call.callee, to: call.caller, ["type": "accepted", "roomId": .number(Double(call.roomID)), "callee": .string(call.callee)])
    }

    /// To both: the call is over, and why. Kept for an account offline (a
    /// missed call is worth reading later; a ring is not).
    static func ended(_ call: Call, end: CallEnd) -> [OutboxMessage] {
        let body: JSONValue = ["type": "ended", "roomId": .number(Double(call.roomID)), "reason": .string(end.rawValue)]
        return [notice(call, from: call.caller, to: call.callee, body, storeOffline: true),
                notice(call, from: call.callee, to: call.caller, body, storeOffline: true)]
    }

    private static func notice(_ call: Call, from: AccountID, to: AccountID, _ body: JSONValue, storeOffline: Bool = false) -> OutboxMessage {
        .im(.notification(from: from, to: to, attach: body.jsonText, storeOffline: storeOffline), roomID: call.roomID)
    }
}

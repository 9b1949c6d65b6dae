import Foundation
import RoomKit

/// A call's two accounts.
struct Call: Sendable, Equatable {
    let roomID: RoomID
    let caller: AccountID
    let callee: AccountID

    func party(_ account: AccountID) -> CallParty? {
        account == caller ? .caller : account == callee ? .callee : nil
    }
}

enum CallParty: String, Sendable {
    case caller, callee
}

/// Why a call ended, as both accounts hear it: a pure reading of the
/// engine's close (its reason and who asked), tested without I/O.
enum CallEnd: String, Sendable, Equatable {
    /// Nobody answered before the ring's deadline.
    case missed
    /// The caller gave up before an answer.
    case cancelled
    /// The callee refused before answering.
    case rejected
    /// Either hung up an answered call.
    case hungUp
    /// The call's time ran out, or an operator ended it.
    case ended

    /// `actor`: who closed the room. A callee's end is the engine's close on
    /// its behalf (`.system` with reason `dissolved`: the engine lets only a
    /// room's owner dissolve it, and the caller owns the call).
    init(reason: CloseReason, actor: Actor, call: Call, answered: Bool) {
        switch (reason, actor) {
        case (.lapsed, _): self = .missed
        case (.dissolved, .account(call.caller)), (.dissolved, .system):
            let byCaller = actor == .account(call.caller)
            self = answered ? .hungUp : byCaller ? .cancelled : .rejected
        default: self = .ended
        }
    }
}

/// The codes the call adds to NetEase's.
enum CallCodes {
    /// The callee is in another call (SIP's "busy here").
    static let calleeBusyCode = 486
    static let callerBusyCode = 488
    static let ended = NetEase.roomClosed
    static let noSuchCall = NetEase.roomNotFound

    static func calleeBusy() -> ClientError {
        ClientError(code: calleeBusyCode, message: "the callee is in another call")
    }

    static func callerBusy() -> ClientError {
        ClientError(code: callerBusyCode, message: "you are in another call; hang it up first")
    }

    static func notYours(_ what: String) -> ClientError {
        ClientError(code: NetEase.forbidden, message: what)
    }
}

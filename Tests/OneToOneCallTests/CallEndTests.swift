import RoomKit
import Testing
@testable import OneToOneCall

/// Why a call ended, read from the engine's close without I/O.
@Suite struct CallEndTests {
    let call = Call(roomID: 7, caller: "ann", callee: "bob")

    @Test func whoEndedItAndWhetherItWasAnsweredNameTheEnd() {
        #expect(CallEnd(reason: .lapsed, actor: .system, call: call, answered: false) == .missed)
        #expect(CallEnd(reason: .dissolved, actor: .account("ann"), call: call, answered: false) == .cancelled)
        #expect(CallEnd(reason: .dissolved, actor: .system, call: call, answered: false) == .rejected)
        #expect(CallEnd(reason: .dissolved, actor: .account("ann"), call: call, answered: true) == .hungUp)
        #expect(CallEnd(reason: .dissolved, actor: .system, call: call, answered: true) == .hungUp)
        #expect(CallEnd(reason: .expired, actor: .system, call: call, answered: true) == .ended)
        #expect(CallEnd(reason: .dissolved, actor: .admin, call: call, answered: true) == .ended)
    }

    @Test func aCallHasTwoSides() {
        #expect(call.party("ann") == .caller && call.party("bob") == .callee && call.party("cat") == nil)
    }
}

import Foundation
import RoomCore
import Testing

/// The lifecycle as a pure value type: feed a snapshot and a command, check the decision.
@Suite struct RoomLifecycleTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func snapshot(
        state: RoomState = .open, expiresIn: TimeInterval = 3600, capacity: Int = 2, joined: Int = 0,
        member: MemberStatus? = nil, reservation: Reservation? = nil
    ) -> RoomLifecycle.Snapshot {
        let room = Room(
            tenantID: "t", id: 1, pluginID: "p", name: "room", owner: "owner", state: state, capacity: capacity,
            createdAt: now.addingTimeInterval(-60), expiresAt: now.addingTimeInterval(expiresIn), reservation: reservation)
        return RoomLifecycle.Snapshot(room: room, joinedCount: joined, memberStatus: member)
    }

    func decide(_ command: RoomLifecycle.Command, _ snapshot: RoomLifecycle.Snapshot) -> Result<RoomLifecycle.Transition, RoomError> {
        RoomLifecycle.decide(command, on: snapshot, now: now)
    }

    @Test func joinAnOpenRoom() {
        #expect(decide(.join("a", inIMChatroom: nil), snapshot()) == .success(.join(claimsReservation: false)))
    }

    @Test func joinTwiceChangesNothing() {
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(member: .joined)) == .success(.alreadyJoined))
    }

    @Test func joinAfterLeavingIsAllowed() {
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(member: .left)) == .success(.join(claimsReservation: false)))
    }

    @Test func joinRefusals() {
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(state: .closed(.dissolved))) == .failure(.closed))
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(expiresIn: -1)) == .failure(.closed), "past its TTL even before the sweeper runs")
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(capacity: 2, joined: 2)) == .failure(.full(capacity: 2)))
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(member: .banned)) == .failure(.banned))
        #expect(decide(.join("a", inIMChatroom: false), snapshot()) == .failure(.notInIMChatroom))
        #expect(decide(.join("a", inIMChatroom: true), snapshot()) == .success(.join(claimsReservation: false)))
    }

    @Test func reservationHoldsTheRoomForNamedAccounts() {
        let held = Reservation(accounts: ["teacher", "student"], until: now.addingTimeInterval(600), onLapse: .close)
        #expect(decide(.join("stranger", inIMChatroom: nil), snapshot(reservation: held)) == .failure(.reservedForOthers))
        #expect(decide(.join("teacher", inIMChatroom: nil), snapshot(reservation: held)) == .success(.join(claimsReservation: true)))
        var claimed = held
        claimed.claimedAt = now.addingTimeInterval(-5)
        #expect(decide(.join("student", inIMChatroom: nil), snapshot(reservation: claimed)) == .success(.join(claimsReservation: false)))
        #expect(decide(.join("stranger", inIMChatroom: nil), snapshot(reservation: claimed)) == .failure(.reservedForOthers), "a claimed hold still keeps others out")
    }

    @Test func lapsedReservation() {
        let lapsedRelease = Reservation(accounts: ["a"], until: now.addingTimeInterval(-1), onLapse: .release)
        let lapsedClose = Reservation(accounts: ["a"], until: now.addingTimeInterval(-1), onLapse: .close)
        #expect(decide(.lapse, snapshot(reservation: lapsedRelease)) == .success(.releaseReservation))
        #expect(decide(.lapse, snapshot(reservation: lapsedClose)) == .success(.close(.lapsed)))
        #expect(decide(.join("stranger", inIMChatroom: nil), snapshot(reservation: lapsedRelease)) == .success(.join(claimsReservation: false)), "a released hold admits anyone")
        #expect(decide(.join("a", inIMChatroom: nil), snapshot(reservation: lapsedClose)) == .failure(.closed), "a lapsed booking is over even before the sweeper runs")
        var claimed = lapsedClose
        claimed.claimedAt = now.addingTimeInterval(-100)
        #expect(decide(.lapse, snapshot(reservation: claimed)) == .success(.nothing), "a claimed reservation never lapses")
        let pending = Reservation(accounts: ["a"], until: now.addingTimeInterval(60), onLapse: .close)
        #expect(decide(.lapse, snapshot(reservation: pending)) == .success(.nothing))
    }

    @Test func reserveRules() {
        let until = now.addingTimeInterval(600)
        #expect(decide(.reserve(["a"], until: until, onLapse: .release, by: .account("owner")), snapshot())
            == .success(.reserve(Reservation(accounts: ["a"], until: until, onLapse: .release))))
        #expect(decide(.reserve(["a"], until: until, onLapse: .release, by: .account("x")), snapshot()) == .failure(.notOwner))
        #expect(decide(.reserve([], until: until, onLapse: .release, by: .admin), snapshot()) == .failure(.invalid(field: "accounts", reason: "name at least one account")))
        #expect(decide(.reserve(["a"], until: now, onLapse: .release, by: .admin), snapshot()) == .failure(.invalid(field: "until", reason: "must be in the future")))
        #expect(decide(.reserve(["a"], until: until, onLapse: .release, by: .admin), snapshot(state: .closed(.expired))) == .failure(.closed))
    }

    @Test func dissolveByOwnerOrAdminOnly() {
        #expect(decide(.dissolve(by: .account("owner")), snapshot()) == .success(.close(.dissolved)))
        #expect(decide(.dissolve(by: .admin), snapshot()) == .success(.close(.dissolved)))
        #expect(decide(.dissolve(by: .account("someone")), snapshot()) == .failure(.notOwner))
        #expect(decide(.dissolve(by: .account("owner")), snapshot(state: .closed(.expired))) == .failure(.closed), "closed is final")
    }

    @Test func expireOnlyWhenDue() {
        #expect(decide(.expire, snapshot(expiresIn: -1)) == .success(.close(.expired)))
        #expect(decide(.expire, snapshot(expiresIn: 0)) == .success(.close(.expired)))
        #expect(decide(.expire, snapshot(expiresIn: 10)) == .success(.nothing))
        #expect(decide(.expire, snapshot(state: .closed(.dissolved), expiresIn: -10)) == .success(.nothing), "closed is final")
    }

    @Test func extend() {
        #expect(decide(.extend(seconds: 60, by: .admin), snapshot(expiresIn: 100)) == .success(.extend(newExpiry: now.addingTimeInterval(160))))
        let bound = RoomError.invalid(field: "ttlSeconds", reason: "must be between 1 and 31622400 seconds (366 days)")
        #expect(decide(.extend(seconds: 0, by: .admin), snapshot()) == .failure(bound))
        #expect(decide(.extend(seconds: 10_000_000_000_000, by: .admin), snapshot()) == .failure(bound), "a huge number never reaches date arithmetic")
        #expect(decide(.extend(seconds: 366 * 86_400, by: .admin), snapshot(expiresIn: 86_400)) ==
                .failure(.conflicts(field: "ttlSeconds", reason: "would keep the room beyond 366 days from now")), "the room's expiry refuses it: 409")
        #expect(decide(.extend(seconds: 60, by: .account("x")), snapshot()) == .failure(.notOwner))
        #expect(decide(.extend(seconds: 60, by: .admin), snapshot(expiresIn: -1)) == .failure(.closed))
    }

    @Test func leaveAndBan() {
        #expect(decide(.leave("a"), snapshot(member: .joined)) == .success(.leave))
        #expect(decide(.leave("a"), snapshot(member: nil)) == .failure(.notMember))
        #expect(decide(.leave("a"), snapshot(member: .left)) == .failure(.notMember))
        #expect(decide(.ban("a", by: .account("owner")), snapshot(member: .joined)) == .success(.ban))
        #expect(decide(.ban("a", by: .account("a")), snapshot(member: .joined)) == .failure(.notOwner))
    }
}

import AudioChatroom
import RoomCore
import Testing

/// The seat rules without I/O: seats in, command in, decision out.
@Suite struct MicSeatsTests {
    let host = "host"
    let ann = SeatMember(account: "ann", nick: "Ann", avatar: "a.png")
    let ben = SeatMember(account: "ben", nick: "Ben", avatar: "b.png")

    func seats(_ seat: MicSeat, others: [MicSeat] = []) -> [MicSeat] {
        [seat] + others
    }

    func decide(_ command: SeatCommand, _ seat: MicSeat, others: [MicSeat] = [], by actor: String) -> Result<SeatOutcome, SeatRefusal> {
        MicSeats.decide(command, seat: seat.index, in: seats(seat, others: others), by: actor, isHost: actor == host)
    }

    func status(_ result: Result<SeatOutcome, SeatRefusal>) -> Int? {
        if case .success(let outcome) = result { outcome.seat.status } else { nil }
    }

    func reason(_ result: Result<SeatOutcome, SeatRefusal>) -> Int? {
        if case .success(let outcome) = result { outcome.seat.reason } else { nil }
    }

    /// #29: a kick frees every seat the account holds or applied for; a
    /// moderator's mute keeps the seat muted whatever the member's own switch.
    @Test func aKickVacatesAndAModeratorsMuteOutlastsTheMembersSwitch() throws {
        let seats = [MicSeat(index: 0, phase: .onMic, member: ann), MicSeat(index: 1, phase: .applying, member: ann),
                     MicSeat(index: 2, phase: .onMic, member: ben, masked: true)]
        let vacated = MicSeats.vacate("ann", in: seats)
        #expect(vacated.map(\.index) == [0, 1] && vacated.allSatisfy { $0.status == 0 && $0.reason == SeatReason.kicked && $0.member == nil })
        #expect(MicSeats.vacate("zed", in: seats).isEmpty)

        let muted = MicSeats.moderate("ben", mutedBy: "account:host", in: seats)
        #expect(muted.count == 1 && muted[0].status == 7 && muted[0].mutedBy == "account:host", "on mic, masked and muted")
        var seat = try #require(muted.first)
        seat.masked = false
        #expect(seat.status == 6 && seat.micMuted)
        // Ben switches himself unmuted: the seat stays muted, and says by whom.
        let unmuting = MicSeats.decide(.selfMute(false), seat: 2, in: [seat], by: "ben", isHost: false)
        let after = try unmuting.get().seat
        #expect(after.status == 6 && after.micMuted && !after.selfMuted && after.mutedBy == "account:host")
        #expect(MicSeats.queueValue(after).contains(#""micMute":true,"mutedBy":"account:host""#))
        #expect(MicSeats.moderate("ben", mutedBy: "account:host", in: [after]).isEmpty, "muting again changes nothing")
        let lifted = MicSeats.moderate("ben", mutedBy: nil, in: [after])
        #expect(lifted.first?.status == 2 && lifted.first?.micMuted == false, "lifted: his own switch (off) rules again")
        #expect(!MicSeats.queueValue(lifted[0]).contains("mutedBy"), "the original app's element, exactly")
        // A member muted before it sits takes the seat muted, applying or invited.
        let empty = MicSeat(index: 3)
        let ann = SeatMember(account: "ann", nick: "Ann", avatar: "")
        let applied = try MicSeats.decide(.apply(ann), seat: 3, in: [empty], by: "ann", isHost: false, mutedBy: ["ann": "admin"]).get().seat
        #expect(applied.mutedBy == "admin" && applied.micMuted)
        let invited = try MicSeats.decide(.invite(ann), seat: 3, in: [empty], by: "host", isHost: true, mutedBy: ["ann": "admin"]).get().seat
        #expect(invited.status == 6 && invited.mutedBy == "admin")
        #expect(try MicSeats.decide(.apply(ann), seat: 3, in: [empty], by: "ann", isHost: false, mutedBy: ["bob": "admin"]).get().seat.mutedBy == nil,
                "another's mute is not hers")
        // A freed seat forgets the mute: the next member starts clean.
        #expect(MicSeats.vacate("ben", in: [after]).first?.mutedBy == nil)
    }

    @Test func statusIsDerivedFromTheFacts() {
        #expect(MicSeat(index: 0).status == 0)
        #expect(MicSeat(index: 0, phase: .applying, member: ann).status == 1)
        #expect(MicSeat(index: 0, phase: .onMic, member: ann).status == 2)
        #expect(MicSeat(index: 0, closed: true).status == 3)
        #expect(MicSeat(index: 0, masked: true).status == 4)
        #expect(MicSeat(index: 0, phase: .onMic, member: ann, masked: true).status == 5)
        #expect(MicSeat(index: 0, phase: .onMic, member: ann, selfMuted: true).status == 6)
        #expect(MicSeat(index: 0, phase: .onMic, member: ann, masked: true, selfMuted: true).status == 7)
    }

    @Test func theApplyAcceptLeaveRoundTrip() throws {
        let applied = try decide(.apply(ann), MicSeat(index: 2), by: "ann").get()
        #expect(applied.seat.status == 1 && applied.seat.member == ann)
        #expect(applied.notifyHost == #"{"command":1,"index":2,"nick":"Ann","avatar":"a.png"}"#)
        let accepted = try decide(.accept, applied.seat, by: host).get()
        #expect(accepted.seat.status == 2 && accepted.seat.reason == SeatReason.accepted)
        let muted = try decide(.selfMute(true), accepted.seat, by: "ann").get()
        #expect(muted.seat.status == 6)
        let left = try decide(.leave, muted.seat, by: "ann").get()
        #expect(left.seat.status == 0 && left.seat.reason == SeatReason.left && left.seat.member == nil && !left.seat.selfMuted)
        #expect(left.notifyHost == #"{"command":2,"index":2}"#)
    }

    @Test func everyLegalMove() {
        let empty = MicSeat(index: 1)
        let applying = MicSeat(index: 1, phase: .applying, member: ann)
        let onMic = MicSeat(index: 1, phase: .onMic, member: ann)
        let masked = MicSeat(index: 1, masked: true)
        let closed = MicSeat(index: 1, closed: true)
        #expect(status(decide(.cancel, applying, by: "ann")) == 0)
        #expect(reason(decide(.cancel, applying, by: "ann")) == SeatReason.cancelled)
        #expect(status(decide(.reject, applying, by: host)) == 0)
        #expect(reason(decide(.reject, applying, by: host)) == SeatReason.rejected)
        #expect(status(decide(.invite(ben), empty, by: host)) == 2)
        #expect(reason(decide(.invite(ben), empty, by: host)) == SeatReason.invited)
        #expect(status(decide(.invite(ben), masked, by: host)) == 5)
        #expect(reason(decide(.invite(ben), masked, by: host)) == SeatReason.maskedBeforeJoining)
        #expect(status(decide(.kick, onMic, by: host)) == 0)
        #expect(reason(decide(.kick, onMic, by: host)) == SeatReason.kicked)
        #expect(status(decide(.mask, onMic, by: host)) == 5)
        #expect(status(decide(.mask, empty, by: host)) == 4)
        #expect(status(decide(.unmask, masked, by: host)) == 0)
        #expect(reason(decide(.unmask, masked, by: host)) == SeatReason.unmasked)
        #expect(status(decide(.close, empty, by: host)) == 3)
        #expect(status(decide(.open, closed, by: host)) == 0)
        #expect(reason(decide(.open, closed, by: host)) == SeatReason.opened)
        #expect(status(decide(.apply(ann), masked, by: "ann")) == 1)
        var maskedApplying = applying
        maskedApplying.masked = true
        #expect(status(decide(.accept, maskedApplying, by: host)) == 5)
        #expect(reason(decide(.accept, maskedApplying, by: host)) == SeatReason.maskedBeforeJoining)
        let openedMasked = MicSeat(index: 1, closed: true, masked: true)
        #expect(status(decide(.open, openedMasked, by: host)) == 4, "opening keeps the mask")
    }

    @Test func everyIllegalMoveIsRefused() {
        let empty = MicSeat(index: 1)
        let applying = MicSeat(index: 1, phase: .applying, member: ann)
        let onMic = MicSeat(index: 1, phase: .onMic, member: ann)
        let closed = MicSeat(index: 1, closed: true)
        // Wrong state.
        #expect(decide(.apply(ben), applying, by: "ben") == .failure(.illegal(command: "apply", status: 1)), "two users on one seat")
        #expect(decide(.apply(ben), onMic, by: "ben") == .failure(.illegal(command: "apply", status: 2)))
        #expect(decide(.apply(ben), closed, by: "ben") == .failure(.illegal(command: "apply", status: 3)))
        #expect(decide(.leave, empty, by: "ann") == .failure(.illegal(command: "leave", status: 0)))
        #expect(decide(.cancel, onMic, by: "ann") == .failure(.illegal(command: "cancel", status: 2)))
        #expect(decide(.accept, empty, by: host) == .failure(.illegal(command: "accept", status: 0)))
        #expect(decide(.kick, applying, by: host) == .failure(.illegal(command: "kick", status: 1)))
        #expect(decide(.invite(ben), onMic, by: host) == .failure(.illegal(command: "invite", status: 2)))
        // #41: a banned account is never invited, whatever the seat.
        #expect(MicSeats.decide(.invite(ben), seat: 1, in: [empty], by: host, isHost: true, banned: ["ben"]) == .failure(.banned))
        #expect(decide(.close, onMic, by: host) == .failure(.illegal(command: "close", status: 2)))
        #expect(decide(.open, empty, by: host) == .failure(.illegal(command: "open", status: 0)))
        #expect(decide(.unmask, empty, by: host) == .failure(.illegal(command: "unmask", status: 0)))
        #expect(decide(.mask, closed, by: host) == .failure(.illegal(command: "mask", status: 3)))
        #expect(decide(.selfMute(true), applying, by: "ann") == .failure(.illegal(command: "self-mute", status: 1)))
        // Wrong person.
        #expect(decide(.leave, onMic, by: "ben") == .failure(.notYourSeat), "leaving a seat you do not hold")
        #expect(decide(.cancel, applying, by: "ben") == .failure(.notYourSeat))
        #expect(decide(.selfMute(true), onMic, by: "ben") == .failure(.notYourSeat))
        for command: SeatCommand in [.accept, .reject, .invite(ben), .kick, .mask, .unmask, .close, .open] {
            #expect(decide(command, onMic, by: "ben") == .failure(.notHost), "\(command.name) is the host's")
        }
        #expect(decide(.apply(SeatMember(account: host, nick: "", avatar: "")), empty, by: host) == .failure(.hostHasNoSeat))
        // One seat per account.
        let elsewhere = MicSeat(index: 5, phase: .onMic, member: ben)
        #expect(decide(.apply(ben), empty, others: [elsewhere], by: "ben") == .failure(.alreadySeated(index: 5)))
        #expect(decide(.invite(ben), empty, others: [elsewhere], by: host) == .failure(.alreadySeated(index: 5)))
    }

    @Test func theQueueElementIsTheOriginalsJSON() {
        let seat = MicSeat(index: 3, phase: .onMic, member: SeatMember(account: "user1", nick: "小\"王\"", avatar: "https://x/y.png"), reason: 1)
        #expect(MicSeats.queueKey(3) == "queue_3")
        #expect(MicSeats.queueValue(seat) == #"{"status":2,"index":3,"reason":1,"member":{"account":"user1","nick":"小\"王\"","avatar":"https://x/y.png"},"micMute":false}"#)
        #expect(MicSeats.queueValue(MicSeat(index: 0)) == #"{"status":0,"index":0,"reason":0,"member":{"account":"","nick":"","avatar":""},"micMute":false}"#)
    }
}

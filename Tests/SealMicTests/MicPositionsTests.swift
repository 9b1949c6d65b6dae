import RoomCore
import SealMic
import Testing

/// The mic rules as a pure value type: feed positions and a command, check
/// the outcome or the refusal.
@Suite struct MicPositionsTests {
    let host = "host"
    var empty: [MicPosition] { (0..<8).map { MicPosition(position: $0) } }

    func decide(_ command: MicCommand, _ positions: [MicPosition], by actor: String) -> Result<MicOutcome, MicRefusal> {
        MicPositions.decide(command, in: positions, actor: actor, host: host)
    }

    @Test func stateBitsAreLockedMutedOccupied() {
        #expect(MicPosition(position: 0).state == 0)
        #expect(MicPosition(position: 0, locked: true).state == 1)
        #expect(MicPosition(position: 0, muted: true).state == 2)
        #expect(MicPosition(position: 0, holder: "a").state == 4)
        #expect(MicPosition(position: 0, holder: "a", muted: true).state == 6)
        #expect(MicPosition(position: 0, locked: true, muted: true).state == 3)
    }

    /// #29: a moderator's mute shows on the holder's position (bit 2 and
    /// who), goes with the holder, and is taken along to a position taken
    /// while it is in force.
    @Test func aModeratorsMuteShowsOnTheHoldersPosition() throws {
        let seated = try decide(.join(position: 1), empty, by: "ann").get().positions
        let muted = try #require(MicPositions.moderate("ann", mutedBy: "admin", in: seated))
        #expect(muted.cmd == .mute && muted.targetPosition == 1 && muted.changed == [MicPosition(position: 1, holder: "ann", mutedBy: "admin")])
        #expect(muted.positions[1].state == 6, "occupied and forbidden, whatever the host's switch")
        #expect(MicPositions.moderate("ann", mutedBy: "admin", in: muted.positions) == nil, "shown already")
        #expect(MicPositions.moderate("bob", mutedBy: "admin", in: muted.positions) == nil, "bob holds no position")
        let lifted = try #require(MicPositions.moderate("ann", mutedBy: nil, in: muted.positions))
        #expect(lifted.cmd == .unmute && lifted.positions[1].state == 4)
        // Leaving takes the mute off the position; taking one while muted shows it.
        let left = try decide(.leave(position: 1), muted.positions, by: "ann").get()
        #expect(left.changed == [MicPosition(position: 1)])
        let back = try MicPositions.decide(.join(position: 4), in: left.positions, actor: "ann", host: host, mutedBy: ["ann": "account:host"]).get()
        #expect(back.changed == [MicPosition(position: 4, holder: "ann", mutedBy: "account:host")])
        let moved = try MicPositions.decide(.change(from: 4, to: 6), in: back.positions, actor: "ann", host: host, mutedBy: ["ann": "account:host"]).get()
        #expect(moved.positions[4] == MicPosition(position: 4) && moved.positions[6].mutedBy == "account:host")
        #expect(MicPositions.vacate("ann", in: moved.positions, cmd: .kick)?.changed == [MicPosition(position: 6)])
    }

    @Test func aListenerJoinsAnEmptyPositionAndLeavesItEmpty() throws {
        let joined = try decide(.join(position: 3), empty, by: "ann").get()
        #expect(joined.cmd == .up && joined.targetUserID == "ann" && joined.targetPosition == 3)
        #expect(joined.changed == [MicPosition(position: 3, holder: "ann")])
        #expect(joined.positions[3].state == 4 && joined.positions.count == 8)
        // Leaving clears the occupied bit (the original kept it).
        let left = try decide(.leave(position: 3), joined.positions, by: "ann").get()
        #expect(left.cmd == .down && left.positions[3].state == 0)
    }

    @Test func joiningIsRefusedForEveryReason() throws {
        var positions = empty
        positions[1].holder = "bob"
        positions[2].locked = true
        #expect(decide(.join(position: 1), positions, by: "ann") == .failure(.taken(position: 1)))
        #expect(decide(.join(position: 2), positions, by: "ann") == .failure(.locked(position: 2)))
        #expect(decide(.join(position: 3), positions, by: "bob") == .failure(.alreadyOnMic(position: 1)))
        #expect(decide(.join(position: 3), positions, by: host) == .failure(.hostHasNoPosition))
        #expect(decide(.join(position: 8), positions, by: "ann") == .failure(.noSuchPosition(field: "targetPosition", position: 8)))
        #expect(decide(.leave(position: 1), positions, by: "ann") == .failure(.notYours(position: 1)))
    }

    @Test func aHolderMovesToAnotherOpenPosition() throws {
        var positions = empty
        positions[1] = MicPosition(position: 1, holder: "bob", muted: true)
        let moved = try decide(.change(from: 1, to: 5), positions, by: "bob").get()
        #expect(moved.cmd == .change && moved.fromPosition == 1 && moved.targetPosition == 5)
        // The mute belongs to the position, not to the person.
        #expect(moved.positions[1].state == 2 && moved.positions[5].state == 4)
        #expect(moved.changed.map(\.position) == [1, 5], "the old position is freed first")
        positions[6].locked = true
        positions[7].holder = "cat"
        #expect(decide(.change(from: 1, to: 6), positions, by: "bob") == .failure(.locked(position: 6)))
        #expect(decide(.change(from: 1, to: 7), positions, by: "bob") == .failure(.taken(position: 7)))
        #expect(decide(.change(from: 0, to: 5), positions, by: "bob") == .failure(.notYours(position: 0)))
        #expect(decide(.change(from: 1, to: 1), positions, by: "bob") == .failure(.unchanged(position: 1, reason: "is already yours")))
    }

    @Test func onlyTheHostControls() {
        for command in [MicCommand.carry(user: "a", userInRoom: true, position: 0), .lock(position: 0), .unlock(position: 0),
                        .mute(position: 0), .unmute(position: 0), .down(position: 0, user: nil)] {
            #expect(decide(command, empty, by: "ann") == .failure(.notHost), "\(command)")
        }
    }

    @Test func hostControlsEachPosition() throws {
        let carried = try decide(.carry(user: "ann", userInRoom: true, position: 0), empty, by: host).get()
        #expect(carried.cmd == .carry && carried.positions[0].holder == "ann")
        #expect(decide(.carry(user: "zed", userInRoom: false, position: 1), empty, by: host) == .failure(.userNotInRoom("zed")))
        #expect(decide(.carry(user: "ann", userInRoom: true, position: 1), carried.positions, by: host) == .failure(.alreadyOnMic(position: 0)))

        // Locking an occupied position sends its holder back to the audience, with cmd 1 (the original said 3).
        let locked = try decide(.lock(position: 0), carried.positions, by: host).get()
        #expect(locked.cmd == .lock && locked.targetUserID == "ann" && locked.positions[0].state == 1)
        #expect(decide(.lock(position: 0), locked.positions, by: host) == .failure(.unchanged(position: 0, reason: "is already locked")))
        let unlocked = try decide(.unlock(position: 0), locked.positions, by: host).get()
        #expect(unlocked.cmd == .unlock && unlocked.positions[0].state == 0)
        #expect(decide(.unlock(position: 0), unlocked.positions, by: host) == .failure(.unchanged(position: 0, reason: "is not locked")))

        let muted = try decide(.mute(position: 4), empty, by: host).get()
        #expect(muted.cmd == .mute && muted.positions[4].state == 2)
        #expect(decide(.mute(position: 4), muted.positions, by: host) == .failure(.unchanged(position: 4, reason: "is already muted")))
        let unmuted = try decide(.unmute(position: 4), muted.positions, by: host).get()
        #expect(unmuted.cmd == .unmute && unmuted.positions[4].state == 0)

        let down = try decide(.down(position: 0, user: nil), carried.positions, by: host).get()
        #expect(down.cmd == .down && down.targetUserID == "ann" && down.positions[0].holder == nil)
        #expect(decide(.down(position: 0, user: "bob"), carried.positions, by: host) == .failure(.notYours(position: 0)))
        #expect(decide(.down(position: 1, user: nil), carried.positions, by: host) == .failure(.empty(position: 1)))
    }

    @Test func leavingTheRoomVacatesThePosition() throws {
        var positions = empty
        positions[2] = MicPosition(position: 2, holder: "ann", locked: false, muted: true)
        let kicked = try #require(MicPositions.vacate("ann", in: positions, cmd: .kick))
        #expect(kicked.cmd == .kick && kicked.targetPosition == 2 && kicked.positions[2].state == 2)
        #expect(MicPositions.vacate("bob", in: positions, cmd: .down) == nil)
    }
}

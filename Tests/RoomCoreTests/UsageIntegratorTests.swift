import Foundation
import RoomCore
import Testing

/// The usage rules without I/O (#30, item 3): rooms and members as step
/// functions, integrated hour by hour.
@Suite struct UsageIntegratorTests {
    let ten = Date(timeIntervalSince1970: (1_900_000_000.0 / 3_600).rounded(.down) * 3_600)
    func at(_ minutes: Double) -> Date { ten.addingTimeInterval(minutes * 60) }

    /// A room open 10:10-11:20; bob in 10:20-10:40, carol from 10:20 until
    /// the room closed with her in it.
    @Test func aRoomAndItsMembersAreCountedHourByHour() {
        var state = UsageIntegrator.State()
        let hours = UsageIntegrator.integrate(&state, steps: [
            (at(10), .roomOpened), (at(20), .joined), (at(20), .joined), (at(40), .left), (at(80), .roomClosed(members: 1)),
        ], until: at(90))
        let first = hours[ten], second = hours[at(60)]
        #expect(first?.roomSeconds == 50 * 60 && first?.memberSeconds == 60 * 60)
        #expect(first?.peakMembers == 2 && first?.roomsOpened == 1 && first?.joins == 2)
        #expect(second?.roomSeconds == 20 * 60 && second?.memberSeconds == 20 * 60)
        #expect(second?.peakMembers == 1 && second?.roomsOpened == 0 && second?.joins == 0)
        #expect(state == UsageIntegrator.State(openRooms: 0, members: 0, at: at(90)))
    }

    /// Folded in two parts, the same figures as in one.
    @Test func foldingInPartsAddsUpToFoldingOnce() {
        let steps: [(at: Date, step: UsageIntegrator.Step)] = [(at(5), .roomOpened), (at(7), .joined), (at(61), .left), (at(70), .roomClosed(members: 0))]
        var once = UsageIntegrator.State()
        let whole = UsageIntegrator.integrate(&once, steps: steps, until: at(75))
        var parts = UsageIntegrator.State()
        var summed = UsageIntegrator.integrate(&parts, steps: Array(steps.prefix(2)), until: at(30))
        for (hour, figures) in UsageIntegrator.integrate(&parts, steps: Array(steps.dropFirst(2)), until: at(75)) {
            summed[hour, default: .init()].roomSeconds += figures.roomSeconds
            summed[hour, default: .init()].memberSeconds += figures.memberSeconds
            summed[hour, default: .init()].peakMembers = max(summed[hour, default: .init()].peakMembers, figures.peakMembers)
            summed[hour, default: .init()].roomsOpened += figures.roomsOpened
            summed[hour, default: .init()].joins += figures.joins
        }
        #expect(summed == whole && parts == once)
    }

    /// A step committed a little after the fold that passed its time counts
    /// at the fold's time; counts never go below zero.
    @Test func aLateStepCountsFromTheStatesTimeAndCountsStayNatural() {
        var state = UsageIntegrator.State(openRooms: 1, members: 0, at: at(30))
        let hours = UsageIntegrator.integrate(&state, steps: [(at(29), .joined), (at(31), .roomClosed(members: 5))], until: at(32))
        #expect(hours[ten]?.memberSeconds == 60 && hours[ten]?.roomSeconds == 60)
        #expect(state.openRooms == 0 && state.members == 0)
    }

    @Test func eventsBecomeSteps() {
        #expect(UsageIntegrator.step(kind: .created, wasMember: false, members: 0) == .roomOpened)
        #expect(UsageIntegrator.step(kind: .closed, wasMember: false, members: 3) == .roomClosed(members: 3))
        #expect(UsageIntegrator.step(kind: .kicked, wasMember: true, members: 0) == .left)
        #expect(UsageIntegrator.step(kind: .banned, wasMember: false, members: 0) == nil)
        #expect(UsageIntegrator.step(kind: .reserved, wasMember: false, members: 0) == nil)
    }
}

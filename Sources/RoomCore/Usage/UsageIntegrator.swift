import Foundation

/// A tenant's rooms and members as step functions of time, integrated per
/// hour (#30, item 3): room-seconds are the open rooms' count times how long
/// it held, member-seconds the joined members', the peak is the most members
/// joined at once within the hour. Pure: the rollup reads the steps (a
/// tenant's room events, in feed order) and writes what this returns.
public enum UsageIntegrator {
    /// What the integration has reached: the counts in force since `at`.
    public struct State: Sendable, Equatable {
        public var openRooms: Int
        public var members: Int
        /// nil before the tenant's first fold.
        public var at: Date?

        public init(openRooms: Int = 0, members: Int = 0, at: Date? = nil) {
            self.openRooms = openRooms
            self.members = members
            self.at = at
        }
    }

    /// One change of the counts.
    public enum Step: Sendable, Equatable {
        case roomOpened
        /// A room closed with `members` still joined: they leave with it.
        case roomClosed(members: Int)
        case joined
        case left
    }

    /// One hour's figures from the rooms' steps.
    public struct Hour: Sendable, Equatable {
        public var roomSeconds: Double = 0
        public var memberSeconds: Double = 0
        public var peakMembers = 0
        public var roomsOpened = 0
        public var joins = 0

        public init() {}
    }

    /// Integrates `state` through `steps` (in the order they were committed;
    /// a step dated before the state's time counts at that time: a commit a
    /// few milliseconds late) and on to `until`. Returns the figures of each
    /// hour touched, by the hour's start.
    public static func integrate(_ state: inout State, steps: [(at: Date, step: Step)], until: Date) -> [Date: Hour] {
        var hours: [Date: Hour] = [:]
        for (at, step) in steps {
            advance(&state, to: at, into: &hours)
            apply(step, to: &state, at: state.at ?? at, into: &hours)
        }
        advance(&state, to: until, into: &hours)
        return hours
    }

    static func hourStart(_ date: Date) -> Date {
        Date(timeIntervalSince1970: (date.timeIntervalSince1970 / 3_600).rounded(.down) * 3_600)
    }

    /// Accumulates the counts in force from the state's time to `date`,
    /// hour by hour.
    private static func advance(_ state: inout State, to date: Date, into hours: inout [Date: Hour]) {
        guard var from = state.at else {
            state.at = date
            return
        }
        while from < date {
            let hour = hourStart(from)
            let end = min(date, hour.addingTimeInterval(3_600))
            let seconds = end.timeIntervalSince(from)
            hours[hour, default: Hour()].roomSeconds += Double(state.openRooms) * seconds
            hours[hour, default: Hour()].memberSeconds += Double(state.members) * seconds
            hours[hour, default: Hour()].peakMembers = max(hours[hour, default: Hour()].peakMembers, state.members)
            from = end
        }
        state.at = max(from, state.at ?? from)
    }

    private static func apply(_ step: Step, to state: inout State, at: Date, into hours: inout [Date: Hour]) {
        let hour = hourStart(at)
        switch step {
        case .roomOpened:
            state.openRooms += 1
            hours[hour, default: Hour()].roomsOpened += 1
        case .roomClosed(let members):
            // Never below zero: events purged by retention before the first
            // fold of an old tenant leave the counts short, not negative.
            state.openRooms = max(0, state.openRooms - 1)
            state.members = max(0, state.members - members)
        case .joined:
            state.members += 1
            hours[hour, default: Hour()].joins += 1
        case .left:
            state.members = max(0, state.members - 1)
        }
        hours[hour, default: Hour()].peakMembers = max(hours[hour, default: Hour()].peakMembers, state.members)
    }

    /// The step a room event is, if any: `members` is how many were joined
    /// when a `closed` room closed, `wasMember` whether a kicked or banned
    /// account had joined.
    public static func step(kind: RoomEventKind, wasMember: Bool, members: Int) -> Step? {
        switch kind {
        case .created: .roomOpened
        case .closed: .roomClosed(members: members)
        case .joined: .joined
        case .left: .left
        case .kicked, .banned: wasMember ? .left : nil
        default: nil
        }
    }
}

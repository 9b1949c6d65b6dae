import Foundation

/// How long a tenant keeps what no longer serves anyone, from the
/// `[retention]` table of its file. Each is a duration ("30d", "12h").
public struct RetentionPolicy: Sendable, Equatable {
    /// Closed rooms, with their members, events and plugin rows (`closedRooms`).
    public var closedRooms: TimeInterval = 30 * 86_400
    /// Outbox entries delivered (`deliveredOutbox`).
    public var deliveredOutbox: TimeInterval = 7 * 86_400
    /// Outbox entries that gave up, kept longer for the operator (`deadOutbox`).
    public var deadOutbox: TimeInterval = 30 * 86_400
    /// Sessions expired or revoked (`endedSessions`).
    public var endedSessions: TimeInterval = 7 * 86_400
    /// Guest accounts (no password) with no session and no open room for this
    /// long; registered accounts are kept (`idleGuests`).
    public var idleGuests: TimeInterval = 90 * 86_400
    /// Audit rows (`audit`): a year, as the issue asks; each row's own
    /// `keep_until` is fixed when it is written (#29).
    public var audit: TimeInterval = 365 * 86_400
    /// Usage per hour (`usage`, #30): the billing export, kept a year and
    /// the month in which its last invoice is made.
    public var usage: TimeInterval = 400 * 86_400

    public init() {}

    public init(_ reader: SettingsReader) {
        let range = 3_600...(3_650 * 86_400)
        closedRooms = TimeInterval(reader.duration("closedRooms", default: Int(closedRooms), in: range))
        deliveredOutbox = TimeInterval(reader.duration("deliveredOutbox", default: Int(deliveredOutbox), in: range))
        deadOutbox = TimeInterval(reader.duration("deadOutbox", default: Int(deadOutbox), in: range))
        endedSessions = TimeInterval(reader.duration("endedSessions", default: Int(endedSessions), in: range))
        idleGuests = TimeInterval(reader.duration("idleGuests", default: Int(idleGuests), in: range))
        audit = TimeInterval(reader.duration("audit", default: Int(audit), in: range))
        usage = TimeInterval(reader.duration("usage", default: Int(usage), in: range))
    }
}

import Foundation

/// Dates derived from input, kept to what a room can mean and what
/// PostgreSQL's timestamp can hold.
///
/// Why: PostgresNIO encodes a `Date` as microseconds in an Int64, and a
/// conversion out of range (a date past year 294,000, or NaN) traps the
/// whole process, every tenant with it (#27: an admin's TTL of 10^13 s).
public enum StorableDate {
    /// `date` within [now, now + the longest room TTL]; NaN or infinite dates
    /// become `now`.
    public static func clamped(_ date: Date, from now: Date) -> Date {
        let seconds = date.timeIntervalSince(now)
        guard seconds.isFinite else { return now }
        return now.addingTimeInterval(min(max(seconds, 0), TimeInterval(RoomLifecycle.ttlRange.upperBound)))
    }

    /// A date from seconds since 1970 read from input, or nil when it is not
    /// a finite time between 1970 and 9999 (what the shipped apps can mean).
    public static func fromEpochSeconds(_ seconds: Double) -> Date? {
        guard seconds.isFinite, (0...253_402_300_799).contains(seconds) else { return nil }
        return Date(timeIntervalSince1970: seconds)
    }
}

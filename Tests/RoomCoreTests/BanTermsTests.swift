import Foundation
import PostgresNIO
@testable import RoomCore
import RoomKit
import RoomTestSupport
import Testing

/// A ban or mute asked over one in force (#41, #42): the standing one keeps
/// its id and takes the new terms when an admin asks or they are at least
/// as strict; otherwise it stands. `BanTerms.over` decides it without I/O
/// (a mute's decided write); `BanStore.newTermsApply` is the same rule in
/// SQL (the transaction's upsert). Both are held to one table of cases.
@Suite struct BanTermsTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let soon = now.addingTimeInterval(60), later = now.addingTimeInterval(3_600)

    /// (standing ends, asked ends, who asks) → the new terms apply.
    static let cases: [(standing: Date?, asked: Date?, actor: Actor, applies: Bool)] = [
        (nil, soon, .account("host"), false),   // a host's short kick never shortens a permanent ban
        (nil, soon, .admin, true),              // an admin may shorten any ban
        (nil, nil, .account("host"), true),     // as strict: the new reason
        (soon, later, .account("host"), true),  // longer
        (later, soon, .account("host"), false), // shorter
        (soon, soon, .account("host"), true),   // as long
        (later, soon, .system, false),
        (soon, nil, .account("host"), true),    // no end is the strictest
    ]

    static func standing(_ ends: Date?) -> Ban {
        Ban(kind: .mute, tenantID: "t", id: 7, accid: "troll", roomID: 1, reason: "first", expiresAt: ends, createdAt: now,
            createdBy: Actor.admin.description, liftedAt: nil, liftedBy: nil)
    }

    @Test func theRuleWithoutIO() {
        for (index, rule) in Self.cases.enumerated() {
            let weighed = BanTerms(until: rule.asked, reason: "second").over(Self.standing(rule.standing), by: rule.actor)
            #expect(weighed.id == 7 && weighed.createdBy == Actor.admin.description, "case \(index): the standing ban's id and maker")
            let expected = rule.applies ? (rule.asked, "second") : (rule.standing, "first")
            #expect(weighed.expiresAt == expected.0 && weighed.reason == expected.1, "case \(index): \(rule)")
        }
    }

    /// PostgreSQL evaluates `newTermsApply` over each case's standing row
    /// (`bans`) and asked row (`excluded`): the same answers.
    @Test func theSQLRuleAgrees() async throws {
        let database = try await TestDatabase.shared()
        for (index, rule) in Self.cases.enumerated() {
            let applies = try await database.query("""
                SELECT \(unescaped: BanStore.newTermsApply)
                FROM (SELECT \(rule.standing)::timestamptz AS expires_at) AS bans,
                     (SELECT \(rule.actor.description)::text AS created_by, \(rule.asked)::timestamptz AS expires_at) AS excluded
                """).decode(Bool.self).first
            #expect(applies == rule.applies, "case \(index): \(rule)")
        }
    }
}

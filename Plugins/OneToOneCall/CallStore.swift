import Foundation
import RoomKit

/// The SQL of calls: the plugin's one store, on whatever `PluginTables` it
/// is given (a route's pool, a hook's transaction).
struct CallStore {
    static let tables = ["one_to_one_calls", "one_to_one_call_parties"]

    let tables: PluginTables

    func accountExists(_ account: AccountID) async throws -> Bool {
        try await !tables.query("SELECT 1 FROM accounts WHERE tenant_id = \(.tenant) AND accid = \(account)").isEmpty
    }

    /// The call's row and its two parties, in one statement; returns the
    /// accounts that got a place (one already in a live call does not).
    func ring(_ call: Call, at now: Date) async throws -> Set<AccountID> {
        let rows = try await tables.query("""
            WITH calls AS (
                INSERT INTO one_to_one_calls (tenant_id, room_id, caller, callee, rung_at)
                VALUES (\(.tenant), \(call.roomID), \(call.caller), \(call.callee), \(now))
            )
            INSERT INTO one_to_one_call_parties (tenant_id, accid, room_id)
            SELECT \(.tenant), a, \(call.roomID) FROM unnest(\([call.caller, call.callee])::text[]) AS a
            ON CONFLICT (tenant_id, accid) DO NOTHING RETURNING accid
            """)
        return Set(try rows.decode(String.self))
    }

    /// The call of a room, live or not.
    func call(_ roomID: RoomID) async throws -> (call: Call, answered: Bool, ended: Bool)? {
        let rows = try await tables.query("""
            SELECT caller, callee, answered_at IS NOT NULL, ended_at IS NOT NULL FROM one_to_one_calls
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID)
            """)
        return try rows.decode((String, String, Bool, Bool).self).first.map { (Call(roomID: roomID, caller: $0, callee: $1), $2, $3) }
    }

    /// The live call `account` is in, if any.
    func liveCall(of account: AccountID) async throws -> RoomID? {
        try await tables.query("""
            SELECT room_id FROM one_to_one_call_parties WHERE tenant_id = \(.tenant) AND accid = \(account)
            """).decode(Int64.self).first
    }

    /// Marks the call answered when `account` is its callee; nil otherwise.
    func answer(_ roomID: RoomID, by account: AccountID, at now: Date) async throws -> Call? {
        let rows = try await tables.query("""
            UPDATE one_to_one_calls SET answered_at = \(now)
            WHERE tenant_id = \(.tenant) AND room_id = \(roomID) AND callee = \(account) AND answered_at IS NULL
            RETURNING caller, callee
            """)
        return try rows.decode((String, String).self).first.map { Call(roomID: roomID, caller: $0, callee: $1) }
    }

    /// Ends the calls of `ids` and frees their accounts; returns each call
    /// and whether it was answered.
    func end(_ ids: RoomIDList, at now: Date) async throws -> [(call: Call, answered: Bool)] {
        let rows = try await tables.query("""
            WITH freed AS (
                DELETE FROM one_to_one_call_parties WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids))
            )
            UPDATE one_to_one_calls SET ended_at = \(now)
            WHERE tenant_id = \(.tenant) AND room_id = ANY(\(ids)) AND ended_at IS NULL
            RETURNING room_id, caller, callee, answered_at IS NOT NULL
            """)
        return try rows.decode((Int64, String, String, Bool).self).map { (Call(roomID: $0, caller: $1, callee: $2), $3) }
    }
}

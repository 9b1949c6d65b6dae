import Foundation
import PostgresNIO

/// Where a cell's ids come from (#43), so that a tenant's ids only grow
/// wherever it lives: the audit log's `after`, the local IM's replay and the
/// outbox's order are cursors over ids, and a moved tenant's rows keep theirs.
///
/// Cell n (from 0, in ROOMKEEPER_CELLS' order) first draws from its own
/// range, n × 2⁴⁸ (`Cells.idRangeStart`; 16 cells reach 2⁵²). A later
/// cell's ids are above an earlier one's, so a move to a later cell needs
/// nothing. A move into a cell whose ids are behind its source's (an earlier
/// cell, or one that claimed no block since the source did) first takes
/// that cell past them: it claims the next block in the directory, above
/// every range and block before it, and its sequences jump there. Every id
/// it draws afterwards is above each id the tenant has (they were drawn in
/// its source, or in cells the source was already past).
///
/// A block holds 2⁴⁴ ids (1.8 × 10¹³: six years at 89,000 a second, figure
/// 1's writes on this machine); 256 blocks from 2⁵² reach 2⁵³, where a JSON
/// number (a JavaScript client's room id) stops being exact.
public enum IDBlocks {
    public static let firstStart: Int64 = 1 << 52
    public static let size: Int64 = 1 << 44
    public static let count = 256

    public static func range(ofBlock block: Int) -> Range<Int64> {
        let start = firstStart + Int64(block) * size
        return start..<(start + size)
    }

    /// The block `id` is in; nil: a cell's own range.
    public static func block(of id: Int64) -> Int? {
        id >= firstStart ? Int((id - firstStart) / size) : nil
    }

    public struct Exhausted: Error, CustomStringConvertible {
        public let cell: String
        public var description: String {
            "no id block left for cell \(cell): all \(IDBlocks.count) were claimed (each move into a cell whose ids were behind its source's claims one)"
        }
    }

    /// The blocks claimed, each with the cell that claimed it.
    public static func claimed(in home: Database) async throws -> [Int: String] {
        let rows = try await home.query("""
            -- cross-tenant: a cell's id blocks serve every tenant in it
            SELECT block, cell FROM cell_id_blocks
            """).decode((Int, String).self)
        return Dictionary(rows, uniquingKeysWith: { first, _ in first })
    }

    /// Takes cell `target` past every id `source` has drawn: when any of its
    /// sequences is behind the source's, it claims the next block and all its
    /// sequences jump there. Returns the block claimed; nil when the target
    /// was ahead already (a move to a later cell, or a move run again).
    public static func keepAhead(target: String, _ targetDatabase: Database, of source: Database, home: Database) async throws -> Int? {
        let there = try await positions(targetDatabase), here = try await positions(source)
        let behind = here.contains { name, position in (there[name] ?? Int64.min) < position }
        guard behind else { return nil }
        let block = try await claim(for: target, home: home)
        try await jump(targetDatabase, to: range(ofBlock: block).lowerBound)
        // Every instance reads the blocks with the directory (the audit
        // log's follower maps an id to the cell that drew it).
        try await home.query("SELECT pg_notify(\(CellDirectoryFollower.channel), '')")
        return block
    }

    /// Each id sequence's last value drawn (one below its start when none was).
    public static func positions(_ database: Database) async throws -> [String: Int64] {
        let rows = try await database.query("""
            -- cross-tenant: a cell's id sequences serve every tenant in it
            SELECT sequencename::text, coalesce(last_value, start_value - 1) FROM pg_sequences WHERE schemaname = current_schema()
            """).decode((String, Int64).self)
        return Dictionary(rows, uniquingKeysWith: max)
    }

    /// The next block, for `cell`: two movers claiming at once get one each
    /// (the block is the key: the loser takes the next).
    public static func claim(for cell: String, home: Database) async throws -> Int {
        for _ in 0..<8 {
            do {
                let claimed = try await home.query("""
                    -- cross-tenant: a cell's id blocks serve every tenant in it
                    INSERT INTO cell_id_blocks (block, cell)
                    SELECT coalesce(max(block) + 1, 0), \(cell) FROM cell_id_blocks HAVING coalesce(max(block) + 1, 0) < \(count)
                    RETURNING block
                    """).decode(Int.self)
                guard let block = claimed.first else { throw Exhausted(cell: cell) }
                return block
            } catch let error as PSQLError where error.serverInfo?[.sqlState] == "23505" {
                continue
            }
        }
        throw Exhausted(cell: cell)
    }

    /// Moves every id sequence of `database` (identity columns' too) to
    /// `start` at least: one already past it is left alone.
    public static func jump(_ database: Database, to start: Int64) async throws {
        try await database.query("""
            -- cross-tenant: a cell's id sequences serve every tenant in it
            SELECT setval(format('%I.%I', schemaname, sequencename), \(start))
            FROM pg_sequences WHERE schemaname = current_schema() AND coalesce(last_value, 0) < \(start)
            """)
    }
}

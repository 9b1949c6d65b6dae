import Foundation
import Logging
import PostgresNIO
import Synchronization

/// Cells (#43): past one primary, tenants are placed across several
/// PostgreSQL formations ("cells"), each holding whole tenants. The first
/// cell (DATABASE_URL) holds the tenant directory (`tenant_cells`); a tenant
/// without a row there lives in the first cell.
///
/// A `Database` given a `Cells` sends each lease to the cell of the tenant it
/// serves (`LeaseOwner.tenant`, bound for a request's whole task), so no
/// statement of the engine, the plugins or the providers names its cell:
/// every statement already names its tenant (TenantFirstTests). A lease for
/// no tenant (the instance's own work) stays in the first cell.
public final class Cells: Sendable {
    public struct Cell: Sendable {
        public let name: String
        public let database: Database
        public init(name: String, database: Database) {
            self.name = name
            self.database = database
        }
    }

    /// The first cell's name: the directory's home, every tenant's default.
    public let home: String
    /// Every cell but the first, by name.
    public let others: [String: Cell]
    /// Every cell's name in the order configured: a cell's index is where
    /// its ids start (`idRangeStart`).
    public let names: [String]
    private let placement = Mutex<[TenantID: String]>([:])
    /// The id blocks claimed, each with the cell that claimed it (`IDBlocks`).
    private let blocks = Mutex<[Int: String]>([:])
    /// Tenants whose move is fenced (`TenantMove`): their new leases wait.
    private let fences = Mutex<Set<TenantID>>([])
    /// Each tenant's leases running now on this instance, by tenant: a
    /// fence is acknowledged once its tenant's are done.
    private let running = Mutex<[TenantID: Int]>([:])

    public init(home: String, others: [Cell]) throws {
        self.home = home
        var byName: [String: Cell] = [:]
        for cell in others {
            guard Self.isName(cell.name), cell.name != home, byName[cell.name] == nil else { throw CellsError.badName(cell.name) }
            byName[cell.name] = cell
        }
        guard Self.isName(home) else { throw CellsError.badName(home) }
        // Cell n's ids start at n × 2⁴⁸: 16 ranges end at 2⁵², where the
        // blocks moves claim begin (`IDBlocks`).
        guard others.count < 16 else { throw CellsError.tooMany(others.count + 1) }
        self.others = byName
        names = [home] + others.map(\.name)
    }

    /// As `tenant_cells.cell` allows: lowercase, a letter first, at most 32.
    static func isName(_ name: String) -> Bool {
        name.range(of: "^[a-z][a-z0-9-]{0,31}$", options: .regularExpression) != nil
    }

    /// The cell `tenant` lives in, by the directory as last read.
    public func cell(of tenant: TenantID) -> String {
        placement.withLock { $0[tenant] } ?? home
    }

    /// The database of `tenant`'s cell; nil: the first cell's.
    func database(for tenant: TenantID) -> Database? {
        let name = cell(of: tenant)
        return name == home ? nil : others[name]?.database
    }

    /// Reads the directory from the first cell. A row naming a cell this
    /// instance does not know is refused: its tenant's statements would go
    /// to the wrong primary.
    /// The fences of moves in progress are read in the same statement, so
    /// a move's flip and its fence's end are learnt together.
    public func load(from home: Database) async throws {
        let rows = try await home.query("""
            -- cross-tenant: the directory names every tenant placed outside the first cell, and the moves fenced now
            SELECT tenant_id, cell, false FROM tenant_cells
            UNION ALL SELECT tenant_id, to_cell, true FROM tenant_moves WHERE phase = 'fenced'
            """).decode((String, String, Bool).self)
        let read = try check(rows.filter { !$0.2 }.map { ($0.0, $0.1) })
        let fenced = Set(rows.filter(\.2).map(\.0))
        let claimed = try await IDBlocks.claimed(in: home)
        placement.withLock { $0 = read }
        fences.withLock { $0 = fenced }
        blocks.withLock { $0 = claimed }
    }

    /// The tenants fenced now.
    public var fenced: Set<TenantID> { fences.withLock { $0 } }

    public func isFenced(_ tenant: TenantID) -> Bool { fences.withLock { $0.contains(tenant) } }

    /// Whether a tenant living in `cell` is fenced now.
    public func fencesTenant(in cell: String) -> Bool {
        fenced.contains { self.cell(of: $0) == cell }
    }

    /// The key `running` counts a cell's own work under (a tenant id has no space).
    static func workKey(_ cell: String) -> String { "cell " + cell }

    /// Leases of `tenant`, and of its cell's own work, running now.
    public func runningOf(_ tenant: TenantID) -> Int {
        running(tenant) + running(Self.workKey(cell(of: tenant)))
    }

    /// Counts a lease of `tenant` while `body` runs.
    func counting<T>(_ tenant: TenantID, _ body: () async throws -> T) async rethrows -> T {
        running.withLock { $0[tenant, default: 0] += 1 }
        defer {
            running.withLock { running in
                running[tenant, default: 1] -= 1
                if running[tenant] == 0 { running[tenant] = nil }
            }
        }
        return try await body()
    }

    /// `tenant`'s leases running now on this instance.
    public func running(_ tenant: TenantID) -> Int { running.withLock { $0[tenant] ?? 0 } }

    /// The directory's rows as a placement, refusing a cell not configured.
    public func check(_ rows: [(String, String)]) throws -> [TenantID: String] {
        var read: [TenantID: String] = [:]
        for (tenant, cell) in rows {
            guard cell == self.home || others[cell] != nil else { throw CellsError.unknownCell(cell, tenant: tenant) }
            read[tenant] = cell
        }
        return read
    }

    /// Places `tenant` in `cell` (a new tenant, or one whose rows are not
    /// yet anywhere else: moving rows is `roomkeeper tenants move`, #43).
    public func place(_ tenant: TenantID, in cell: String, home database: Database) async throws {
        guard cell == home || others[cell] != nil else { throw CellsError.unknownCell(cell, tenant: tenant) }
        try await Self.record(tenant, in: cell, home: database)
        placement.withLock { $0[tenant] = cell }
    }

    /// Writes `tenant`'s row of the directory (the first cell's), for this
    /// instance (`place`) and for `roomkeeper tenants place`.
    public static func record(_ tenant: TenantID, in cell: String, home database: Database) async throws {
        guard TenantLoader.isValidID(tenant) else { throw CellsError.badTenant(tenant) }
        guard isName(cell) else { throw CellsError.badName(cell) }
        try await database.query("""
            INSERT INTO tenant_cells (tenant_id, cell) VALUES (\(tenant), \(cell))
            ON CONFLICT (tenant_id) DO UPDATE SET cell = EXCLUDED.cell, placed_at = now()
            """)
    }

    /// Where the ids a cell draws start: cell n (from 0) draws from n × 2⁴⁸,
    /// so a tenant's rows keep their ids when they move to another cell.
    /// 2⁴⁸ (2.8 × 10¹⁴) ids a cell: a century at 89,000 a second.
    public static func idRangeStart(index: Int) -> Int64 { Int64(index) << 48 }

    /// Moves every sequence of `database` (identity columns' too) into cell
    /// `index`'s range, once: a sequence already in it (or past it, in a
    /// block the cell claimed: `IDBlocks`) is left alone.
    public static func claimIDRange(index: Int, on database: Database) async throws {
        guard index > 0 else { return }
        try await IDBlocks.jump(database, to: idRangeStart(index: index))
    }

    /// Cell `index`'s own range of ids.
    public static func idRange(index: Int) -> Range<Int64> { idRangeStart(index: index)..<idRangeStart(index: index + 1) }

    /// The ids cell `index` draws or has drawn, oldest first: its own range,
    /// then each block it claimed (`IDBlocks`), as this instance last read them.
    public func idRanges(ofCell index: Int) -> [Range<Int64>] {
        guard index < names.count else { return [Self.idRange(index: index)] }
        let name = names[index]
        let claimed = blocks.withLock { $0 }.filter { $0.value == name }.keys.sorted()
        return [Self.idRange(index: index)] + claimed.map(IDBlocks.range(ofBlock:))
    }

    /// The cell (by index) that drew `id`; nil: a block claimed by a cell
    /// this instance does not know, or not read yet.
    public func cellIndex(ofID id: Int64) -> Int? {
        guard let block = IDBlocks.block(of: id) else { return Int(id >> 48) }
        guard let name = blocks.withLock({ $0[block] }) else { return nil }
        return names.firstIndex(of: name)
    }
}

public enum CellsError: Error, CustomStringConvertible {
    case badName(String)
    case badTenant(String)
    case unknownCell(String, tenant: TenantID)
    case tooMany(Int)

    public var description: String {
        switch self {
        case .badName(let name): "cell name \"\(name)\" must be a lowercase letter then up to 31 of a-z, 0-9 and -, each name once"
        case .badTenant(let tenant): "tenant id \"\(tenant)\" must be a tenant file's name: a-z, 0-9 and -"
        case .unknownCell(let cell, let tenant): "tenant \(tenant) is placed in cell \(cell), which this instance is not configured with (ROOMKEEPER_CELLS)"
        case .tooMany(let count): "\(count) cells configured: at most 16 (each draws its ids from a range of 2⁴⁸ below 2⁵²)"
        }
    }
}

import Foundation
import Logging
import PostgresNIO
import RoomCore
import RoomTestSupport
import Testing

/// #43: the id blocks a cell claims when a tenant moves into it from a cell
/// whose ids are ahead (`IDBlocks`). Each test's directory is a fresh
/// database of its own (`CellsTests.withCell`), so its claims touch no
/// other test's.
@Suite(.serialized) struct IDBlocksTests {
    @Test func blocksLieAboveEveryCellsRangeAndBelowTwoToTheFiftyThird() {
        #expect(Cells.idRange(index: 15).upperBound == IDBlocks.firstStart, "16 cells' ranges end where the blocks begin")
        #expect(IDBlocks.range(ofBlock: 0).lowerBound == IDBlocks.firstStart)
        #expect(IDBlocks.range(ofBlock: IDBlocks.count - 1).upperBound == 1 << 53, "every id exact in a JSON number")
        #expect(IDBlocks.block(of: IDBlocks.range(ofBlock: 7).lowerBound + 12) == 7)
        #expect(IDBlocks.block(of: Cells.idRangeStart(index: 3) + 5) == nil, "a cell's own range is no block")
        // Never connected: the cells' count is refused first.
        let client = PostgresClient(configuration: .init(host: "127.0.0.1", username: "none", password: nil, database: nil, tls: .disable))
        let nowhere = Database(client: client, logger: Logger(label: "tests"))
        #expect(throws: CellsError.self) { try Cells(home: "c0", others: (1...16).map { Cells.Cell(name: "c\($0)", database: nowhere) }) }
        #expect(throws: Never.self) { try Cells(home: "c0", others: (1...15).map { Cells.Cell(name: "c\($0)", database: nowhere) }) }
    }

    @Test func aCellBehindItsSourceClaimsTheNextBlockAndJumpsThere() async throws {
        try await CellsTests.withCell(index: 2) { directory, _ in
            try await CellsTests.withCell(index: 1) { behind, _ in
                try await CellsTests.withCell(index: 3) { ahead, _ in
                    // Two movers at once: one block each.
                    async let first = IDBlocks.claim(for: "one", home: directory)
                    async let second = IDBlocks.claim(for: "two", home: directory)
                    #expect(Set([try await first, try await second]) == [0, 1])

                    #expect(try await IDBlocks.keepAhead(target: "ahead", ahead, of: behind, home: directory) == nil, "a later cell is ahead already")
                    let block = try await IDBlocks.keepAhead(target: "behind", behind, of: ahead, home: directory)
                    #expect(block == 2)
                    let drawn = try await behind.query("SELECT nextval('room_ids')").decode(Int64.self).first ?? Int64(0)
                    #expect(IDBlocks.range(ofBlock: 2).contains(drawn), "its ids come from the block: \(drawn)")
                    let positions = try await IDBlocks.positions(behind)
                    #expect(positions.values.allSatisfy { IDBlocks.block(of: $0) == 2 }, "every sequence jumped: \(positions)")
                    #expect(try await IDBlocks.keepAhead(target: "behind", behind, of: ahead, home: directory) == nil, "run again: ahead now")
                    let claimed = try await IDBlocks.claimed(in: directory)
                    #expect(Set([claimed[0], claimed[1]]) == ["one", "two"] && claimed[2] == "behind" && claimed.count == 3, "\(claimed)")

                    try await directory.query("INSERT INTO cell_id_blocks (block, cell) VALUES (\(IDBlocks.count - 1), 'last')")
                    await #expect(throws: IDBlocks.Exhausted.self) { _ = try await IDBlocks.claim(for: "more", home: directory) }
                }
            }
        }
    }
}

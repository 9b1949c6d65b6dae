import Foundation
import RoomCore
import Testing

/// The database password is found as psql finds it, never in the URL.
@Suite struct PgPassTests {
    @Test func theFirstMatchingLineGivesThePassword() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pgpass-\(UUID().uuidString)").path
        try "# comment\nother:5432:*:roomkeeper:no\n127.0.0.1:*:*:roomkeeper:pa\\:ss\n*:*:*:*:fallback\n".write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let env = ["PGPASSFILE": path]
        #expect(PgPass.password(host: "127.0.0.1", port: 54329, database: "roomkeeper", user: "roomkeeper", environment: env) == "pa:ss")
        #expect(PgPass.password(host: "db", port: 5432, database: "x", user: "app", environment: env) == "fallback")
        #expect(PgPass.password(host: "db", port: 5432, database: "x", user: "app", environment: ["PGPASSFILE": path + "-missing"]) == nil)
    }
}

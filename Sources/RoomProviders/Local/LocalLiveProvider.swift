import Foundation
import RoomCore

/// The default live provider when a tenant names no vendor: URLs on a local
/// RTMP/HTTP server, signed with the same txSecret/txTime scheme as Tencent
/// when the tenant gives a key (so a media server can check them the same
/// way), and the online list
/// from the stream states callbacks recorded (`live_streams`).
public struct LocalLiveProvider: LiveProvider {
    let tenantID: TenantID
    let database: Database
    let host: String
    let app: String
    let key: String?

    public init(tenantID: TenantID, database: Database, host: String = "127.0.0.1", app: String = "live", key: String? = nil) {
        self.tenantID = tenantID
        self.database = database
        self.host = host
        self.app = app
        self.key = key
    }

    public var kind: String { "local" }

    public func pushURL(stream: String, expiresAt: Date) async throws -> String {
        "rtmp://\(host)/\(app)/\(stream)\(signed(stream, expiresAt))"
    }

    public func pullURLs(stream: String, expiresAt: Date) async throws -> LivePullURLs {
        let query = signed(stream, expiresAt)
        return LivePullURLs(rtmp: "rtmp://\(host)/\(app)/\(stream)\(query)", flv: "http://\(host)/\(app)/\(stream).flv\(query)",
                            hls: "http://\(host)/\(app)/\(stream).m3u8\(query)")
    }

    public func onlineStreams() async throws -> [String] {
        let rows = try await database.query("SELECT stream FROM live_streams WHERE tenant_id = \(tenantID) AND live ORDER BY stream")
        return try rows.decode(String.self)
    }

    public func dropStream(_ stream: String) async throws {
        try await database.query("UPDATE live_streams SET live = false WHERE tenant_id = \(tenantID) AND stream = \(stream)")
    }

    /// The query string, "?" included; empty without a key.
    private func signed(_ stream: String, _ expiresAt: Date) -> String {
        guard let key else { return "" }
        let txTime = TencentSigning.txTime(expiresAt)
        return "?txSecret=\(TencentSigning.txSecret(key: key, stream: stream, txTime: txTime))&txTime=\(txTime)"
    }
}

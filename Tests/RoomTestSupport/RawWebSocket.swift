import Foundation

/// A WebSocket client over a bare connection from a client address of the
/// test's choosing (127.0.0.2 as a second client): the WebSocket client
/// library always speaks from 127.0.0.1. Just enough of RFC 6455 for a
/// login: the upgrade, masked text frames out, frames in read as text.
public final class RawWebSocket: Sendable {
    let connection: RawConnection

    private init(connection: RawConnection) {
        self.connection = connection
    }

    /// Upgrades `path` on 127.0.0.1:`port` from `source`; nil when the
    /// server did not switch protocols within 5 s.
    public static func open(port: Int, path: String, from source: String) async throws -> RawWebSocket? {
        let connection = try await RawConnection.open(port: port, from: source)
        try await connection.write("""
            GET \(path) HTTP/1.1\r
            Host: 127.0.0.1\r
            Upgrade: websocket\r
            Connection: Upgrade\r
            Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r
            Sec-WebSocket-Version: 13\r
            \r

            """)
        let socket = RawWebSocket(connection: connection)
        guard await socket.received(containing: "101 Switching Protocols", within: .seconds(5)) else {
            await connection.close()
            return nil
        }
        return socket
    }

    /// Sends one masked text frame.
    public func send(_ text: String) async throws {
        let payload = Array(text.utf8)
        let mask: [UInt8] = (0..<4).map { _ in UInt8.random(in: 0...255) }
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try await connection.write(bytes: frame)
    }

    /// Whether what the server sent (frames read as text) holds `text` within `timeout`.
    public func received(containing text: String, within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if connection.received.contains(text) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return connection.received.contains(text)
    }

    public var closedByServer: Bool {
        get async { await connection.closedByServer(within: .milliseconds(1)) }
    }

    public func close() async {
        await connection.close()
    }
}

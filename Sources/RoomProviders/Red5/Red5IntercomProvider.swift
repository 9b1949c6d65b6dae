import Foundation
import RoomCore

/// Red5 (open source): no REST API, so the adapter only builds RTMP URLs.
/// Red5 does not authenticate players, so what protects a session is its
/// stream name: 128 random bits, new for every session.
public struct Red5IntercomProvider: IntercomProvider {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        public var app: String

        public init(host: String, port: Int = 1935, app: String = "live") {
            self.host = host
            self.port = port
            self.app = app
        }
    }

    let configuration: Configuration

    public init(_ configuration: Configuration) {
        self.configuration = configuration
    }

    public var kind: String { "red5" }

    /// The phone publishes to the stream; the headset plays the same stream.
    public func session(for room: RoomID, expiresAt: Date) async throws -> IntercomSession {
        let stream = "intercom-\(room)-\(Secrets.randomToken(bytes: 16))"
        let url = "rtmp://\(configuration.host):\(configuration.port)/\(configuration.app)/\(stream)"
        return IntercomSession(speakURL: url, listenURL: url, expiresAt: expiresAt)
    }
}

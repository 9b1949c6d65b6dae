import Foundation

/// Live streaming (Tencent Cloud Live, or a local stand-in): signed URLs and
/// stream control. Adapters come with issue #6; plugins see only this.
public protocol LiveProvider: Sendable {
    var kind: String { get }

    /// Where the broadcaster publishes, signed to expire at `expiresAt`.
    func pushURL(stream: String, expiresAt: Date) async throws -> String
    /// Where viewers play the stream.
    func pullURLs(stream: String, expiresAt: Date) async throws -> LivePullURLs
    /// Streams being published now.
    func onlineStreams() async throws -> [String]
    /// Ends a publication (idempotent: a stream that is gone is success).
    func dropStream(_ stream: String) async throws
}

public struct LivePullURLs: Sendable, Equatable {
    public var rtmp: String
    public var flv: String
    public var hls: String

    public init(rtmp: String, flv: String, hls: String) {
        self.rtmp = rtmp
        self.flv = flv
        self.hls = hls
    }
}

/// A voice intercom between a phone and a headset (Red5): RTMP URLs whose
/// stream names cannot be guessed, one pair per session.
public protocol IntercomProvider: Sendable {
    var kind: String { get }

    func session(for room: RoomID, expiresAt: Date) async throws -> IntercomSession
}

public struct IntercomSession: Sendable, Equatable {
    /// The phone publishes its voice here.
    public var speakURL: String
    /// The headset plays it from here.
    public var listenURL: String
    public var expiresAt: Date

    public init(speakURL: String, listenURL: String, expiresAt: Date) {
        self.speakURL = speakURL
        self.listenURL = listenURL
        self.expiresAt = expiresAt
    }
}

public enum MediaError: Error, Sendable, Equatable, CustomStringConvertible {
    case timeout(operation: String)
    case unavailable(operation: String, detail: String)
    case rejected(operation: String, code: String, message: String)

    public var description: String {
        switch self {
        case .timeout(let operation): "media provider timed out on \(operation)"
        case .unavailable(let operation, let detail): "media provider unavailable on \(operation): \(detail)"
        case .rejected(let operation, let code, let message): "media provider refused \(operation): \(code) \(message)"
        }
    }
}

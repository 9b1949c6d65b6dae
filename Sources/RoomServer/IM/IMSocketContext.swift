import Hummingbird
import HummingbirdWebSocket

/// The request context of the WebSocket router.
public struct IMSocketContext: RequestContext, WebSocketRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let webSocket: WebSocketHandlerReference<Self>
    /// The TCP peer's IP address (a proxy's, behind one).
    public let peerAddress: String?

    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        webSocket = .init()
        peerAddress = source.channel.remoteAddress?.ipAddress
    }
}

import Hummingbird
import HummingbirdCore
import Logging
import HummingbirdWebSocket
import NIOCore

/// Slowloris: a client that opens a connection and trickles its request
/// head never finishes it. Hummingbird's idle timeout starts counting only
/// once the first head is parsed (the WebSocket upgrader waits for it
/// first), so this handler, first in the pipeline, closes a connection
/// whose first head has not ended (`CRLF CRLF`) within `seconds`. It then
/// steps aside; later requests on the connection are bounded by the idle
/// timeout, which counts from the last complete part.
final class RequestHeadDeadline: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private let seconds: Int64
    private var timer: Scheduled<Void>?
    /// The last bytes seen, so a terminator split across reads is found.
    private var tail: [UInt8] = []

    init(seconds: Int64) {
        self.seconds = seconds
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let loopBound = NIOLoopBound(context, eventLoop: context.eventLoop)
        timer = context.eventLoop.scheduleTask(in: .seconds(seconds)) {
            loopBound.value.close(promise: nil)
        }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        timer?.cancel()
        timer = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        let bytes = tail + buffer.readableBytesView
        let terminator: [UInt8] = [13, 10, 13, 10]
        let ended = bytes.count >= 4 && (0...(bytes.count - 4)).contains { bytes[$0..<($0 + 4)].elementsEqual(terminator) }
        tail = Array(bytes.suffix(3))
        context.fireChannelRead(data)
        if ended {
            timer?.cancel()
            timer = nil
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        }
    }
}

/// The server's child channel with `RequestHeadDeadline` in front.
struct HeadDeadlineChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value
    let inner: Inner
    let seconds: Int64

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            try channel.pipeline.syncOperations.addHandler(RequestHeadDeadline(seconds: seconds), position: .first)
        }.flatMap {
            inner.setup(channel: channel, logger: logger)
        }
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}

extension HTTPServerBuilder {
    /// HTTP/1 with the local IM's WebSocket upgrade, bounded against slow and
    /// idle clients: the first request head within `headSeconds`, an idle
    /// keep-alive connection closed after `idleSeconds`, WebSocket peers
    /// pinged every 30 s and dropped when they stop answering.
    static func boundedHTTP1WebSocket(webSocketRouter: Router<IMSocketContext>, headSeconds: Int64, idleSeconds: Int64) -> HTTPServerBuilder {
        let webSocketResponder = webSocketRouter.buildResponder()
        let configuration = HTTP1WebSocketUpgradeChannel.Configuration(
            http1: .init(idleTimeout: .seconds(idleSeconds)),
            ws: .init(maxFrameSize: 1 << 20, autoPing: .enabled(timePeriod: .seconds(30))))
        return HTTPServerBuilder { responder in
            HeadDeadlineChannel(
                inner: HTTP1WebSocketUpgradeChannel(responder: responder, webSocketResponder: webSocketResponder, configuration: configuration),
                seconds: headSeconds)
        }
    }
}

import Foundation
import NIOCore
import NIOPosix
import Synchronization

/// A bare TCP connection to 127.0.0.1, for what an HTTP client library will
/// not do: trickle half a request head, or sit idle, and see when the
/// server hangs up.
public final class RawConnection: Sendable {
    final class Collector: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = Mutex("")
        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            let buffer = unwrapInboundIn(data)
            received.withLock { $0 += String(buffer: buffer) }
        }
    }

    private let channel: any Channel
    private let collector: Collector

    private init(channel: any Channel, collector: Collector) {
        self.channel = channel
        self.collector = collector
    }

    /// `from`: the client's own address (127.0.0.2 is a second client of
    /// the loopback range: abuse tests speak from it as another address).
    public static func open(port: Int, from source: String? = nil) async throws -> RawConnection {
        let collector = Collector()
        var bootstrap = ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(collector) } }
        if let source { bootstrap = bootstrap.bind(to: try SocketAddress(ipAddress: source, port: 0)) }
        let channel = try await bootstrap.connect(host: "127.0.0.1", port: port).get()
        return RawConnection(channel: channel, collector: collector)
    }

    public func write(_ text: String) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(string: text))
    }

    public func write(bytes: [UInt8]) async throws {
        try await channel.writeAndFlush(channel.allocator.buffer(bytes: bytes))
    }

    /// What the server sent so far.
    public var received: String { collector.received.withLock { $0 } }

    /// True when the server closed the connection within `timeout`.
    public func closedByServer(within timeout: Duration) async -> Bool {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if !channel.isActive { return true }
            try? await Task.sleep(for: .milliseconds(20))
        }
        return !channel.isActive
    }

    public func close() async {
        try? await channel.close()
    }
}

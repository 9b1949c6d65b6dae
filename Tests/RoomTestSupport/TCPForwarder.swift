import NIOCore
import NIOPosix
import Synchronization

/// A TCP port on 127.0.0.1 that forwards every connection to another port,
/// until `stop()` closes it and every connection through it: a database host
/// that can be made to vanish the way a crashed server does, while the real
/// PostgreSQL behind it keeps running for the other tests. `freeze()` makes
/// it a host that hangs instead: connections stay open, nothing passes.
public final class TCPForwarder: Sendable {
    public let port: Int
    private let task: Task<Void, Never>
    private let frozen: FreezeSwitch
    private let accepted: AcceptedClients

    public init(to targetPort: Int) async throws {
        let frozen = FreezeSwitch(), accepted = AcceptedClients()
        self.frozen = frozen
        self.accepted = accepted
        let server = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .bind(host: "127.0.0.1", port: 0) { channel in
                channel.eventLoop.makeCompletedFuture {
                    let client = try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                    accepted.add(client)
                    return client
                }
            }
        port = server.channel.localAddress?.port ?? 0
        task = Task {
            try? await withThrowingDiscardingTaskGroup { group in
                try await server.executeThenClose { inbound in
                    for try await client in inbound where accepted.claim(client) {
                        group.addTask { try? await Self.forward(client, to: targetPort, frozen: frozen) }
                    }
                }
            }
        }
    }

    /// Holds every byte from now on (new connections are accepted and hang
    /// too), as a SIGSTOPped server or a host gone without a reset would.
    public func freeze() { frozen.value.store(true, ordering: .releasing) }

    /// Lets bytes through again.
    public func thaw() { frozen.value.store(false, ordering: .releasing) }

    /// Closes the port and cuts every forwarded connection.
    public func stop() async {
        task.cancel()
        await task.value
        for client in accepted.unclaimed() { try? await client.executeThenClose { _, _ in } }
    }

    private static func forward(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>, to port: Int, frozen: FreezeSwitch) async throws {
        let upstream = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connect(host: "127.0.0.1", port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        try await client.executeThenClose { clientIn, clientOut in
            try await upstream.executeThenClose { upstreamIn, upstreamOut in
                // Either direction ending (or the forwarder stopping) ends both.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { for try await bytes in clientIn { try await frozen.waitWhileFrozen(); try await upstreamOut.write(bytes) } }
                    group.addTask { for try await bytes in upstreamIn { try await frozen.waitWhileFrozen(); try await clientOut.write(bytes) } }
                    try await group.next()
                    group.cancelAll()
                }
            }
        }
    }
}

final class FreezeSwitch: Sendable {
    let value = Atomic<Bool>(false)

    func waitWhileFrozen() async throws {
        while value.load(ordering: .acquiring) { try await Task.sleep(for: .milliseconds(10)) }
    }
}

/// Connections accepted and not yet forwarded. One accepted while `stop()`
/// ends the accept loop is never forwarded, and NIO stops the process when
/// such a channel goes without `executeThenClose` (seen once in the full
/// suite: a pool reconnecting through a stopping forwarder), so `stop()`
/// closes those properly. Each is either claimed by the loop or closed here.
final class AcceptedClients: Sendable {
    private let clients = Mutex<[ObjectIdentifier: NIOAsyncChannel<ByteBuffer, ByteBuffer>]>([:])

    func add(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>) {
        clients.withLock { $0[ObjectIdentifier(client.channel)] = client }
    }

    func claim(_ client: NIOAsyncChannel<ByteBuffer, ByteBuffer>) -> Bool {
        clients.withLock { $0.removeValue(forKey: ObjectIdentifier(client.channel)) != nil }
    }

    func unclaimed() -> [NIOAsyncChannel<ByteBuffer, ByteBuffer>] {
        clients.withLock { clients in
            defer { clients.removeAll() }
            return Array(clients.values)
        }
    }
}

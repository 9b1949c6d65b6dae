import ArgumentParser
import Dispatch
import Foundation
import NIOCore
import NIOPosix

/// The process's entry. With `ROOMKEEPER_EXECUTOR=nio`, Swift concurrency's
/// global executor is NIO's event loops (#28, item 7: tasks then run where
/// their connections' I/O does instead of hopping to the cooperative pool
/// and back); it can only be installed before the first task runs, so this
/// entry is synchronous and starts the command itself.
@main
enum Entry {
    static func main() {
        if ProcessInfo.processInfo.environment["ROOMKEEPER_EXECUTOR"] == "nio",
           !NIOSingletons.unsafeTryInstallSingletonPosixEventLoopGroupAsConcurrencyGlobalExecutor() {
            FileHandle.standardError.write(Data("roomkeeper: NIO's event loops could not become the global executor\n".utf8))
        }
        let done = DispatchSemaphore(value: 0)
        // Detached: `main` is the main actor's, whose thread waits below.
        Task.detached {
            await RoomkeeperCommand.main()
            done.signal()
        }
        done.wait()
    }
}

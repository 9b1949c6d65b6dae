import NIOPosix
import RoomCore
import Testing

/// bcrypt and other CPU work leave the event loops: on 2 cores, a few inline
/// bcrypt calls stalled every tenant's requests.
@Suite struct CPUWorkTests {
    @Test func cpuWorkRunsOffTheEventLoops() async throws {
        let onLoop = try await CPUWork.run { MultiThreadedEventLoopGroup.currentEventLoop != nil }
        #expect(onLoop == false)
        let results = try await withThrowingTaskGroup(of: Int.self) { group in
            for n in 0..<8 { group.addTask { try await CPUWork.run { (0...n).reduce(0, +) } } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }.sorted()
        }
        #expect(results == [0, 1, 3, 6, 10, 15, 21, 28])
    }
}

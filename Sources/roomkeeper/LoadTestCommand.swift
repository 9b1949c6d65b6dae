import ArgumentParser
import Foundation
import RoomLoadTest
import Synchronization

/// `roomkeeper load-test` (#44): rooms of a plugin, members per room on the
/// local IM, chatroom messages at a rate; reports joins/s, delivery latency
/// and errors by code, as a table or JSON. Bounded in size and time; the
/// target is loopback unless `--url` names another.
struct LoadTestCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "load-test",
        abstract: "Load-test a deployment through its public routes and IM sockets, then clean up (bounded).")

    @Option(help: "The deployment's base URL.")
    var url = "http://127.0.0.1:8080"
    @Option(help: "The tenant to load (its plugin must be enabled, its IM the local one).")
    var tenant = "demo"
    @Option(help: "The plugin: \(LoadTestPlan.plugins.joined(separator: ", ")).")
    var plugin = "sealmic"
    @Option(help: "Rooms (1-100).")
    var rooms = 4
    @Option(help: "Members per room, besides its host (1-1000; rooms × (members + 1) ≤ 5000).")
    var members = 25
    @Option(help: "Chatroom messages a second over all rooms (1-1000).")
    var rate = 20
    @Option(help: "Seconds of messages (1-600).")
    var seconds = 10
    @Flag(help: "Print the report as JSON instead of a table.")
    var json = false

    func run() async throws {
        let plan = LoadTestPlan(url: url, tenant: tenant, plugin: plugin, rooms: rooms, members: members,
                                messagesPerSecond: rate, seconds: seconds)
        do {
            _ = try plan.checked()
        } catch let refused as LoadTestPlan.Refused {
            throw ValidationError(refused.description)
        }
        let bar = ProgressLine()
        let report = try await LoadTest.run(plan) { phase, done, total in bar.show(phase, done, total) }
        bar.finish()
        print(json ? report.json : report.table)
        if report.joins == 0 || !report.errors.isEmpty { throw ExitCode(1) }
    }
}

/// A progress bar on standard error, redrawn at most ten times a second;
/// into a log (not a terminal), a line a phase and every 2 s.
final class ProgressLine: Sendable {
    private let last = Mutex<(phase: String, at: ContinuousClock.Instant?)>(("", nil))
    private let terminal = isatty(2) == 1

    func show(_ phase: String, _ done: Int, _ total: Int) {
        let now = ContinuousClock.now
        let draw = last.withLock { last in
            let every: Duration = terminal ? .milliseconds(100) : .seconds(2)
            let due = terminal ? (last.phase != phase || done == total || last.at.map { now - $0 > every } ?? true)
                               : (done == total || last.at.map { now - $0 > every } ?? true)
            if due { last = (phase, now) }
            return due
        }
        guard draw, total > 0 else { return }
        let width = 30
        let filled = min(width, done * width / total)
        let line = (terminal ? "\r" : "") + "\(phase.padding(toLength: 11, withPad: " ", startingAt: 0)) [" + String(repeating: "#", count: filled)
            + String(repeating: ".", count: width - filled) + "] \(done)/\(total)" + (terminal ? "\u{1B}[K" : "\n")
        FileHandle.standardError.write(Data(line.utf8))
    }

    func finish() { if terminal { FileHandle.standardError.write(Data("\n".utf8)) } }
}

import AsyncHTTPClient
import Foundation

/// `roomkeeper load-test` (#44): a bounded load test of any deployment,
/// through its public routes and IM sockets only (not our internal bench).
public enum LoadTest {
    /// Runs `plan`; `progress(phase, done, of)` as it goes.
    public static func run(_ plan: LoadTestPlan, progress: @escaping @Sendable (String, Int, Int) -> Void = { _, _, _ in }) async throws -> LoadTestReport {
        let plan = try plan.checked()
        var report = LoadTestReport(plan: plan)
        let tally = LoadTestTally()
        let began = ContinuousClock.now
        let http = HTTPClient(eventLoopGroupProvider: .singleton)
        await SealMicLoad(plan: plan, http: http, tally: tally, progress: progress).run(into: &report)
        try? await http.shutdown()
        tally.fill(&report)
        let took = ContinuousClock.now - began
        report.seconds = (took.inSeconds * 10).rounded() / 10
        return report
    }
}

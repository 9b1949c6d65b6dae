import RoomCore
@testable import RoomKit
import Testing

/// #41: bcrypt on NIO's two shared blocking threads let one account's loop
/// of right passwords queue every tenant's logins. Password work has its own
/// pool behind a bounded queue with a share per tenant.
@Suite(.serialized) struct SlowHashTests {
    @Test func aTenantPastItsShareIsToldBusyWhileAnotherStillHashes() async throws {
        let queue = SlowHash.queue
        for _ in 0..<queue.perTenant { #expect(queue.enter("flooding")) }
        defer { for _ in 0..<queue.perTenant { queue.leave("flooding") } }
        await #expect(throws: ServiceBusy.self, "past its share: busy, not queued") {
            try await SlowHash.run(tenant: "flooding") { 1 }
        }
        #expect(try await SlowHash.run(tenant: "quiet") { 2 } == 2, "another tenant's check runs")
        guard case .databaseUnavailable = Failure(classifying: ServiceBusy(what: "password checks")) else {
            Issue.record("answered 'unavailable for a moment, try again'")
            return
        }
    }

    @Test func theInstancesQueueIsBoundedOverAllTenants() {
        let queue = FairQueue(total: 3, perTenant: 2)
        #expect(queue.enter("a") && queue.enter("a") && !queue.enter("a"))
        #expect(queue.enter("b") && !queue.enter("c"), "three in all")
        queue.leave("a")
        #expect(queue.enter("c"))
    }
}

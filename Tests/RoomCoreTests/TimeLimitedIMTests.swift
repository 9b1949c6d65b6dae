import Foundation
import RoomCore
import Testing

@Suite struct TimeLimitedIMTests {
    /// A vendor that never answers.
    struct SilentVendor: IMProvider {
        let kind = "silent"
        /// As the local IM says of itself: its calls end in bounded time.
        var callsAreBounded = false
        var hangSeconds = 30.0
        func hang<T>() async throws -> T {
            try await Task.sleep(for: .milliseconds(Int(hangSeconds * 1000)))
            throw IMError.unavailable(operation: "hang", detail: "unreachable")
        }
        func createAccount(_ account: IMAccount) async throws -> IMCredentials { try await hang() }
        func refreshToken(accid: AccountID) async throws -> IMCredentials { try await hang() }
        func revokeTokens(accid: AccountID) async throws { try await hang() as Void }
        func createChatroom(name: String, creator: AccountID, id: String?) async throws -> String { try await hang() }
        func closeChatroom(_ chatroom: String, operator: AccountID, notifyExt: String?) async throws { try await hang() as Void }
        func muteChatroom(_ chatroom: String, operator: AccountID, muted: Bool, notify: Bool, notifyExt: String?) async throws { try await hang() as Void }
        func removeFromChatroom(_ chatroom: String, accid: AccountID, operator: AccountID, keepOut: ChatroomKeepOut?) async throws { try await hang() as Void }
        func readmitToChatroom(_ chatroom: String, accid: AccountID, operator: AccountID) async throws { try await hang() as Void }
        func muteMember(_ chatroom: String, accid: AccountID, operator: AccountID, minutes: Int?) async throws { try await hang() as Void }
        func unmuteMember(_ chatroom: String, accid: AccountID, operator: AccountID) async throws { try await hang() as Void }
        func isMember(_ accid: AccountID, of chatroom: String) async throws -> Bool { try await hang() }
        func onlineCounts(_ chatrooms: [String]) async throws -> [String: Int] { try await hang() }
        func sendChatroomMessage(_ chatroom: String, from: AccountID, type: String, body: String, persist: Bool, messageID: String) async throws { try await hang() as Void }
        func sendNotification(from: AccountID, to: AccountID, attach: String, storeOffline: Bool) async throws { try await hang() as Void }
        func queuePut(_ chatroom: String, key: String, value: String, operator: AccountID) async throws { try await hang() as Void }
        func queuePoll(_ chatroom: String, key: String) async throws -> String? { try await hang() }
        func queueList(_ chatroom: String) async throws -> [IMQueueEntry] { try await hang() }
        func queueDrop(_ chatroom: String) async throws { try await hang() as Void }
    }

    /// A provider whose calls are bounded otherwise (the local IM: statements
    /// under the request's deadline) gets no timer of its own: its call ends
    /// as it ends, here with its own error after 0.4 s under a 0.2 s limit.
    @Test func aBoundedProviderIsNotTimedAgain() async throws {
        let limited = TimeLimitedIM(SilentVendor(callsAreBounded: true, hangSeconds: 0.4), seconds: 0.2)
        await #expect(throws: IMError.unavailable(operation: "hang", detail: "unreachable")) {
            try await limited.onlineCounts(["1"])
        }
        #expect(TimeLimitedIM(SilentVendor(), seconds: 1).callsAreBounded, "a limited provider is bounded")
    }

    @Test func aSilentProviderFailsFastWithATimeoutNamingTheCall() async throws {
        let limited = TimeLimitedIM(SilentVendor(), seconds: 0.2)
        let started = ContinuousClock.now
        await #expect(throws: IMError.timeout(operation: "isMember")) {
            try await limited.isMember("a", of: "1")
        }
        await #expect(throws: IMError.timeout(operation: "closeChatroom")) {
            try await limited.closeChatroom("1", operator: "a", notifyExt: nil)
        }
        #expect(ContinuousClock.now - started < .seconds(5))
        #expect(IMError.timeout(operation: "x").isTransient, "the outbox retries a timeout")
    }
}

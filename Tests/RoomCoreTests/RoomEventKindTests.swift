import RoomCore
import Testing

/// The room events as an enum (#28, item 4): each spelled once, read back as
/// itself, sent as one webhook type.
@Suite struct RoomEventKindTests {
    @Test func everyKindReadsBackAsItself() {
        for kind in RoomEventKind.engine {
            #expect(RoomEventKind(stored: kind.stored) == kind)
        }
        #expect(Set(RoomEventKind.engine.map(\.stored)).count == RoomEventKind.engine.count, "no two kinds share a text")
        #expect(RoomEventKind(stored: "audio-chatroom.seat.changed") == .plugin("audio-chatroom.seat.changed"))
        #expect(RoomEventKind(stored: "reservation-lapsed") == .reservationLapsed)
    }

    @Test func oneWebhookTypePerEngineEvent() {
        let sent = RoomEventKind.engine.compactMap { kind in kind.webhook.map { (kind, $0.type) } }
        #expect(sent.map(\.0) == RoomEventKind.engine.filter { $0 != .deadline }, "every engine event but the deadline is a webhook")
        #expect(Set(sent.map(\.1)).count == sent.count, "no two events share a webhook type")
        #expect(sent.allSatisfy { WebhookEventTypes.core.contains($0.1) }, "endpoints may subscribe to each")
        #expect(RoomEventKind.left.webhook?.type == "member.left" && RoomEventKind.left.webhook?.extra == ["reason": "left"])
        #expect(RoomEventKind.plugin("live-quiz.question.published").webhook == nil, "a plugin event is sent under its own type")
    }
}

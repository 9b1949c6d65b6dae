import Foundation
import RoomCore
import RoomProviders
import Testing

/// A local-IM frame is the text `JSONEncoder` wrote for it (sorted keys,
/// `/` as is) before `Frames.encode` wrote it by hand: the shapes a socket
/// is sent (events with their payload, notifications, errors).
@Suite struct LocalIMFramesTests {
    @Test(arguments: [
        JSONValue.object(["type": "message", "chatroom": "42", "id": .number(9_007_199_254_740_000), "at": .number(1_764_400_000_123),
                          "from": "acc/1", "body": "quote \" backslash \\ newline \n tab \t bell \u{07} 中文 😀", "persist": true]),
        .object(["type": "queue", "chatroom": "7", "key": "queue_1", "value": #"{"status":1,"member":{"nick":"用户"}}"#,
                 "ext": .null, "list": [1, .number(2.5), -3, .object(["z": "", "a": .number(0.001)])]]),
        .object(["type": "notification", "id": 12, "from": "a", "attach": "{}", "at": .number(-0.5)]),
        .object([:]),
    ])
    func framesAreWhatJSONEncoderWrote(_ value: JSONValue) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        #expect(Frames.encode(value) == String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    @Test func anErrorFrameNamesItsCodeAndMessage() {
        #expect(Frames.error("not_logged_in", "log in first") == #"{"code":"not_logged_in","message":"log in first","type":"error"}"#)
    }
}

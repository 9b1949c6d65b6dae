import Foundation
import RoomCore
import Testing

/// A plugin's typed room attributes (#28, item 4), without I/O.
@Suite struct RoomAttributesTests {
    struct Look: Codable, Sendable, Equatable {
        var thumbnail: String
        var size: Int
    }

    func room(attributes: String) -> Room {
        Room(tenantID: "t", id: 1, pluginID: "p", name: "r", owner: "o", state: .open, capacity: 2,
             createdAt: Date(timeIntervalSince1970: 0), expiresAt: Date(timeIntervalSince1970: 60), attributes: attributes)
    }

    @Test func setOnCreationReadTypedAfter() throws {
        var spec = NewRoom(name: "r", owner: "o")
        try spec.setAttributes(Look(thumbnail: "https://x/a.png", size: 3))
        #expect(spec.attributes == #"{"size":3,"thumbnail":"https://x/a.png"}"#, "keys sorted, slashes kept")
        #expect(room(attributes: spec.attributes).attributes(as: Look.self) == Look(thumbnail: "https://x/a.png", size: 3))
        #expect(room(attributes: #"{"thumbnail":"a"}"#).attributes(as: Look.self) == nil, "an object that is not one reads as none")
        #expect(room(attributes: "{}").attributes(as: NoAttributes.self) == NoAttributes())
    }

    @Test func aListedRoomServesWhatTheListDecoded() {
        let stored = #"{"size":2,"thumbnail":"stored"}"#
        // The memo decodes its own text: a list's memo, not the room's text again.
        let memo = AttributesMemo(text: #"{"size":1,"thumbnail":"kept"}"#, decoder: AttributesDecoder(Look.self))
        let listed = ListedRoom(room: room(attributes: stored), joinedCount: 0, attributes: memo)
        #expect(listed.attributes(as: Look.self) == Look(thumbnail: "kept", size: 1))
        #expect(listed.attributes(as: Look.self) == Look(thumbnail: "kept", size: 1), "read again from the memo")
        let undecoded = ListedRoom(room: room(attributes: #"{"size":2,"thumbnail":"stored"}"#), joinedCount: 0)
        #expect(undecoded.attributes(as: Look.self) == Look(thumbnail: "stored", size: 2), "decoded from the text when the list held none")
        let decoder = AttributesDecoder(Look.self)
        #expect(decoder(#"{"size":5,"thumbnail":"d"}"#) as? Look == Look(thumbnail: "d", size: 5))
        #expect(decoder("{}") == nil)
    }
}

/// The hand-written JSON text (`JSONValue.jsonText`) reads back as the value,
/// as Foundation's decoder reads it, for every kind of value and string.
@Suite struct JSONWriterTests {
    @Test(arguments: [
        JSONValue.object(["b": [1, .number(2.5), -3, true, false, .null], "a": ["nested": "x"], "": "empty key"]),
        .string("quote \" backslash \\ slash / newline \n tab \t return \r bell \u{07} nul \u{00} 中文 😀"),
        .array([]), .object([:]), .number(1e-7), .number(123456789012), .number(-0.5),
    ])
    func readsBackAsItself(_ value: JSONValue) throws {
        let text = value.jsonText
        #expect(JSONValue.parse(text) == value, "\(text)")
        #expect(try JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) == value, "\(text)")
    }

    @Test func keysAreSortedAndWholeNumbersHaveNoFraction() {
        #expect(JSONValue.object(["b": 1, "a": .number(2.0), "c": "/"]).jsonText == #"{"a":2,"b":1,"c":"/"}"#)
        #expect(JSONValue.string("\u{01}").jsonText == #""\u0001""#)
        #expect(JSONValue.number(.infinity).jsonText == "null", "JSON has no infinity")
    }
}

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
        let decoded = Look(thumbnail: "kept", size: 1)
        let listed = ListedRoom(room: room(attributes: #"{"size":2,"thumbnail":"stored"}"#), joinedCount: 0, decodedAttributes: decoded)
        #expect(listed.attributes(as: Look.self) == decoded, "the list's decoded value, not the text again")
        let undecoded = ListedRoom(room: room(attributes: #"{"size":2,"thumbnail":"stored"}"#), joinedCount: 0)
        #expect(undecoded.attributes(as: Look.self) == Look(thumbnail: "stored", size: 2), "decoded from the text when the list held none")
        let decoder = AttributesDecoder(Look.self)
        #expect(decoder(#"{"size":5,"thumbnail":"d"}"#) as? Look == Look(thumbnail: "d", size: 5))
        #expect(decoder("{}") == nil)
    }
}

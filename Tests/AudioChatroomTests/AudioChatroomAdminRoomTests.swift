import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// An operator's audio chatroom: its picture is the one asked for (a URL of
/// at most 1 KiB) and its clients see it in the lobby; a bad one is refused
/// by name and creates nothing.
@Suite struct AudioChatroomAdminRoomTests {
    @Test func anAdminRoomShowsItsPictureAndABadOneIsRefused() async throws {
        let fixture = try await AudioChatroomFixture()
        try await fixture.server.live { http in
            let path = "/admin/v1/tenants/\(fixture.server.id(0))/rooms"
            for bad in ["5", #""""#, "\"\(String(repeating: "x", count: 1_025))\""] {
                let refused = try await http.post(path, key: fixture.server.operatorKey,
                                                  json: #"{"plugin":"audio-chatroom","name":"Stage","owner":"op","options":{"thumbnail":\#(bad)}}"#)
                #expect(refused.status == .unprocessableContent && refused.json["field"]?.string == "options.thumbnail")
            }
            let created = try await http.post(path, key: fixture.server.operatorKey,
                                              json: #"{"plugin":"audio-chatroom","name":"Stage","owner":"op","options":{"thumbnail":"https://example.com/a.png"}}"#)
            #expect(created.status == .created)
            guard case .array(let list)? = data(try await http.form("\(fixture.base())/room/list", ""))?["list"] else { Issue.record("list"); return }
            #expect(list.count == 1 && list.first?["thumbnail"]?.string == "https://example.com/a.png")
        }
    }
}

import Foundation
import RoomKit

/// `/live/start`, `/live/stop`, `/live/list`, `/live/query`, `/intercom/start`.
enum LiveRoutes {
    typealias Settings = HeadsetLivePlugin.Settings

    struct PullURLs: Encodable, Sendable {
        let rtmp: String
        let flv: String
        let hls: String
    }

    struct Started: Encodable, Sendable {
        let roomId: Int64
        let deviceId: String
        let title: String
        let pushUrl: String
        let pullUrls: PullURLs
        let liveStatus: Int
        let createTime: Int64
        let expiresAt: Int64
    }

    struct Listed: Encodable, Sendable {
        let roomId: Int64
        let title: String
        let deviceId: String
        let creator: String
        let liveStatus: Int
        let rtmpPullUrl: String
        let createTime: Int64
    }

    struct Listing: Encodable, Sendable {
        let total: Int
        let list: [Listed]
    }

    struct Queried: Encodable, Sendable {
        let roomId: Int64
        let title: String
        let deviceId: String
        let creator: String
        let pullUrls: PullURLs
        let liveStatus: Int
        let onlineUserCount: Int
        let createTime: Int64
        let expiresAt: Int64
    }

    struct Intercom: Encodable, Sendable {
        let speakUrl: String
        let listenUrl: String
        let expiresAt: Int64
    }

    /// A live room's own row.
    struct LiveRoom {
        let room: Room
        let deviceID: String
        let title: String
        let stream: String
        /// The latest the room may live: URLs are signed until then.
        let deadline: Date
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/live/start", handle: liveStart),
        /// The room's owner takes a viewer out (#29): out of the IM chatroom,
        /// no pull URLs for it, and with `durationSeconds` kept out that long.
        .hostKick("/live/kick"),
        ClientRoute("/live/stop", handle: liveStop),
        ClientRoute("/live/list", methods: [.get, .post], effect: .reads, handle: liveList),
        ClientRoute("/live/query", methods: [.get, .post], effect: .reads, handle: liveQuery),
        ClientRoute("/intercom/start", handle: intercomStart),
    ]

    /// One open room per device: starting again returns it with freshly signed URLs.
    static func liveStart(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let account = try await call.caller()
        let device = try DeviceRoutes.deviceID(call.parameters)
        let title = call.parameters.string("title") == nil ? "直播" : try call.parameters.text("title", characters: 1...32)
        guard try await DeviceRoutes.owner(of: device, call) == account.accid else { throw HeadsetCodes.notBound(device) }
        if let existing = try await liveRoomID(ofDevice: device, call), let live = try await liveRoom(existing, call) {
            return try await started(live, call)
        }
        do {
            let room = try await call.createRoom(NewRoom(name: title, owner: account.accid),
                                                 creating: LiveCreation(deviceID: device), of: HeadsetLivePlugin(), by: .account(account.accid))
            guard let live = try await liveRoom(room, call) else { throw RoomError.notFound }
            return try await started(live, call)
        } catch let error as ClientError where error.code == HeadsetCodes.alreadyLive {
            // A concurrent start won: theirs is the device's room.
            guard let winner = try await liveRoomID(ofDevice: device, call), let live = try await liveRoom(winner, call) else { throw error }
            return try await started(live, call)
        }
    }


    static func liveStop(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let account = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        _ = try await call.rooms.dissolve(roomID, by: .account(account.accid))
        return EmptyObject()
    }

    /// Rooms whose stream is live now, latest deadline (newest) first. Pull URLs are signed
    /// credentials: only a logged-in app gets them.
    static func liveList(_ call: ClientCall<Settings>) async throws -> Listing {
        let viewer = try await call.caller()
        let limit = try call.parameters.int("limit", default: 20, in: 1...100)
        let offset = try call.parameters.int("offset", default: 0, in: 0...1_000_000)
        // The plugin's rows say which room streams; the engine's read says
        // which this viewer may enter (live, not banned from it: #41), so a
        // room hidden from it is neither listed with its signed pull URL
        // nor counted. One statement.
        let (listed, total) = try await HeadsetStore(tables: call.tables)
            .enterableStreamingRooms(viewer: viewer.accid, at: call.now(), limit: limit, offset: offset)
        var list: [Listed] = []
        for room in listed {
            let pull = try await call.stream(room.stream, of: room.roomID).pullURLs(expiresAt: room.expiresAt)
            list.append(Listed(roomId: room.roomID, title: room.title, deviceId: room.deviceID, creator: room.owner, liveStatus: 1,
                               rtmpPullUrl: pull.rtmp, createTime: room.createdAt.epochMilliseconds))
        }
        return Listing(total: total, list: list)
    }

    static func liveQuery(_ call: ClientCall<Settings>) async throws -> Queried {
        let viewer = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        // A viewer's way in: its pull URLs are signed credentials (#29).
        let room = try await call.rooms.enter(roomID, as: viewer.accid)
        guard let live = try await liveRoom(room, call) else { throw RoomError.notFound }
        let pull = try await call.stream(live.stream, of: room.id).pullURLs(expiresAt: room.expiresAt)
        let online = try await call.chatroom(of: room)?.online() ?? 0
        return Queried(roomId: roomID, title: live.title, deviceId: live.deviceID, creator: room.owner,
                       pullUrls: PullURLs(rtmp: pull.rtmp, flv: pull.flv, hls: pull.hls), liveStatus: try await liveStatus(live, call),
                       onlineUserCount: online, createTime: room.createdAt.epochMilliseconds, expiresAt: room.expiresAt.epochMilliseconds)
    }

    /// Owner only; stream names are new and unguessable per session.
    static func intercomStart(_ call: ClientCall<Settings>) async throws -> Intercom {
        let account = try await call.caller()
        let roomID = try call.parameters.requiredInt64("roomId")
        let room = try await call.rooms.live(roomID)
        guard room.owner == account.accid else { throw RoomError.notOwner }
        guard let live = try await liveRoom(room, call) else { throw RoomError.notFound }
        let session = try await call.intercomSession(of: room, expiresAt: live.deadline)
        // Recorded on the live room, locked: a close racing it either
        // waits and ends this session too, or wins and it is refused
        // (recorded after the close, nobody would have ended it).
        try await call.rooms.mutate(roomID) { tx in
            try await HeadsetStore(tables: tx.tables).recordIntercom(roomID, speakURL: session.speakURL, listenURL: session.listenURL,
                                                                      expiresAt: session.expiresAt, at: tx.now)
        }
        return Intercom(speakUrl: session.speakURL, listenUrl: session.listenURL, expiresAt: session.expiresAt.epochMilliseconds)
    }

    static func liveRoomID(ofDevice device: String, _ call: ClientCall<Settings>) async throws -> RoomID? {
        try await HeadsetStore(tables: call.tables).liveRoomID(ofDevice: device)
    }

    static func liveRoom(_ roomID: RoomID, _ call: ClientCall<Settings>) async throws -> LiveRoom? {
        guard let room = try await call.rooms.find(roomID) else { return nil }
        return try await liveRoom(room, call)
    }

    static func liveRoom(_ room: Room, _ call: ClientCall<Settings>) async throws -> LiveRoom? {
        try await HeadsetStore(tables: call.tables).liveRow(room.id).map {
            LiveRoom(room: room, deviceID: $0.deviceID, title: $0.title, stream: $0.stream, deadline: $0.deadline)
        }
    }

    /// 1 while the live provider last reported the stream pushing.
    static func liveStatus(_ live: LiveRoom, _ call: ClientCall<Settings>) async throws -> Int {
        try await call.rooms.stream(live.stream)?.live == true ? 1 : 0
    }

    static func started(_ live: LiveRoom, _ call: ClientCall<Settings>) async throws -> Started {
        let until = live.deadline
        let stream = try call.stream(live.stream, of: live.room.id)
        let pull = try await stream.pullURLs(expiresAt: until)
        return Started(roomId: live.room.id, deviceId: live.deviceID, title: live.title,
                       pushUrl: try await stream.pushURL(expiresAt: until),
                       pullUrls: PullURLs(rtmp: pull.rtmp, flv: pull.flv, hls: pull.hls), liveStatus: try await liveStatus(live, call),
                       createTime: live.room.createdAt.epochMilliseconds, expiresAt: live.room.expiresAt.epochMilliseconds)
    }
}

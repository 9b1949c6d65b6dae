import Foundation
import RoomKit

/// `/user/get`, `/device/bind`, `/device/unbind`, `/device/list`.
enum DeviceRoutes {
    typealias Settings = HeadsetLivePlugin.Settings

    struct UserInfo: Encodable, Sendable {
        let sid: String
        let accid: String
        let nickname: String
        let availableAt: Int64
    }

    struct Bound: Encodable, Sendable {
        let deviceId: String
        let boundAt: Int64
    }

    struct Device: Encodable, Sendable {
        let deviceId: String
        let boundAt: Int64
        let roomId: Int64?

        enum Keys: String, CodingKey { case deviceId, boundAt, roomId }

        /// `roomId` is null, not absent, without a live room.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(deviceId, forKey: .deviceId)
            try container.encode(boundAt, forKey: .boundAt)
            try container.encode(roomId, forKey: .roomId)
        }
    }

    struct Listing: Encodable, Sendable {
        let total: Int
        let list: [Device]
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/user/get", handle: userGet),
        ClientRoute("/device/bind", handle: deviceBind),
        ClientRoute("/device/unbind", handle: deviceUnbind),
        ClientRoute("/device/list", effect: .reads, handle: deviceList),
    ]

    static func userGet(_ call: ClientCall<Settings>) async throws -> UserInfo {
        let login = try await GuestLogin.login(call, ttlSeconds: call.settings.sessionTTLSeconds,
                                               prefix: "phone", nickname: { "手机" + $0.suffix(6) })
        return UserInfo(sid: login.sid, accid: login.account.accid, nickname: login.account.nickname, availableAt: login.expiresAt.epochMilliseconds)
    }

    /// Binding again to the same phone is success; another phone gets 1301.
    static func deviceBind(_ call: ClientCall<Settings>) async throws -> Bound {
        let account = try await call.caller()
        let device = try deviceID(call.parameters)
        guard let (owner, boundAt) = try await HeadsetStore(tables: call.tables).bind(device, to: account.accid, at: call.now()) else {
            throw ClientError(code: HeadsetCodes.boundElsewhere, message: "device \(device) was just unbound; try again")
        }
        guard owner == account.accid else {
            throw ClientError(code: HeadsetCodes.boundElsewhere, message: "device \(device) is bound to another phone")
        }
        return Bound(deviceId: device, boundAt: boundAt.epochMilliseconds)
    }

    /// Ends the device's live room first.
    static func deviceUnbind(_ call: ClientCall<Settings>) async throws -> EmptyObject {
        let account = try await call.caller()
        let device = try deviceID(call.parameters)
        guard try await owner(of: device, call) == account.accid else { throw HeadsetCodes.notBound(device) }
        let store = HeadsetStore(tables: call.tables)
        // A room that cannot be ended keeps its device bound (#41: a
        // failed dissolve left a live room bound to nobody); one that
        // ended meanwhile is fine.
        if let roomID = try await store.liveRoomID(ofDevice: device) {
            do {
                _ = try await call.rooms.dissolve(roomID, by: .account(account.accid))
            } catch RoomError.closed, RoomError.notFound {}
        }
        try await store.unbind(device, from: account.accid)
        return EmptyObject()
    }

    static func deviceList(_ call: ClientCall<Settings>) async throws -> Listing {
        let account = try await call.caller()
        let devices = try await HeadsetStore(tables: call.tables).devices(of: account.accid).map {
            Device(deviceId: $0.deviceID, boundAt: $0.boundAt.epochMilliseconds, roomId: $0.roomID)
        }
        return Listing(total: devices.count, list: devices)
    }

    /// The UID from the headset's QR code: 4-64 letters, digits, `-`, `_`.
    static func deviceID(_ parameters: WireParameters) throws -> String {
        let device = try parameters.required("deviceId")
        guard isDeviceID(device) else { throw ParameterError(field: "deviceId", reason: "must be 4-64 letters, digits, - or _") }
        return device
    }

    static func isDeviceID(_ device: String) -> Bool {
        let allowed = device.unicodeScalars.allSatisfy { ($0.isASCII && CharacterSet.alphanumerics.contains($0)) || $0 == "-" || $0 == "_" }
        return (4...64).contains(device.count) && allowed
    }

    static func owner(of device: String, _ call: ClientCall<Settings>) async throws -> AccountID? {
        try await HeadsetStore(tables: call.tables).owner(of: device)
    }
}

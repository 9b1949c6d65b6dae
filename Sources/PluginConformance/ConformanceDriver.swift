import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RoomCore

/// What a plugin tells the conformance suite: how its clients get an
/// account, create, join and dissolve a room through its own routes.
public protocol ConformanceDriver: Sendable {
    var plugin: AnyRoomPlugin { get }
    /// The plugin's table for the suite's tenant files (`[plugins.<id>]` and settings).
    var pluginTable: String { get }
    func makeAccount(_ client: PluginClient) async throws -> ConformanceAccount
    func createRoom(_ client: PluginClient, owner: ConformanceAccount) async throws -> RoomID
    /// true when the plugin accepted; false when it refused with its wire error.
    func dissolveRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool
    /// true when the plugin admitted the account; false when it refused.
    func joinRoom(_ client: PluginClient, roomID: RoomID, as account: ConformanceAccount) async throws -> Bool
    /// The room's host kicks `account` through the plugin's own route for
    /// `seconds` (#29). True when the plugin accepted; false when it refused.
    func kick(_ client: PluginClient, roomID: RoomID, account: ConformanceAccount, forSeconds seconds: Int, as host: ConformanceAccount) async throws -> Bool
    /// Who owns a room `creator` created: the creator, unless the plugin
    /// gives rooms another owner (a booked lesson belongs to its teacher).
    func owner(of roomID: RoomID, createdBy creator: ConformanceAccount) async throws -> ConformanceAccount
    /// What the admin API needs for a room of this plugin that its clients
    /// can use: an owner and the plugin's creation data.
    func adminRoom(_ client: PluginClient) async throws -> AdminRoom
    /// The plugin's clients use a room the admin API made (join, a seat, a
    /// message, as the plugin's apps would). True when every step worked.
    func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool
}

extension ConformanceDriver {
    public func owner(of roomID: RoomID, createdBy creator: ConformanceAccount) async throws -> ConformanceAccount { creator }

    /// A plugin that needs no creation data: any account owns it.
    public func adminRoom(_ client: PluginClient) async throws -> AdminRoom {
        AdminRoom(owner: try await makeAccount(client))
    }

    /// Another account joins it, as in `joinRoom`.
    public func useAdminRoom(_ client: PluginClient, roomID: RoomID, _ room: AdminRoom) async throws -> Bool {
        try await joinRoom(client, roomID: roomID, as: try await makeAccount(client))
    }
}

/// A room as the admin API is asked for it.
public struct AdminRoom: Sendable {
    public var owner: ConformanceAccount
    /// The plugin's creation data (`options` in the request).
    public var options: JSONValue
    /// The field the plugin names when the admin API omits the options (nil:
    /// it needs none).
    public var requiredOption: String?
    /// Other accounts the room is for (a lesson's student).
    public var guests: [ConformanceAccount]

    public init(owner: ConformanceAccount, options: JSONValue = .object([:]), requiredOption: String? = nil, guests: [ConformanceAccount] = []) {
        self.owner = owner
        self.options = options
        self.requiredOption = requiredOption
        self.guests = guests
    }
}

/// An account as the plugin's clients hold it.
public struct ConformanceAccount: Sendable {
    public var accid: String
    /// Whatever the plugin's clients send to prove who they are (sid, token).
    public var credential: String

    public init(accid: String, credential: String) {
        self.accid = accid
        self.credential = credential
    }
}

/// Calls a plugin's routes for one tenant over real HTTP.
public struct PluginClient: Sendable {
    public let tenantID: TenantID
    public let pluginID: String
    let http: any TestClientProtocol

    public struct Answer: Sendable {
        public let status: HTTPResponse.Status
        public let json: JSONValue
    }

    /// POSTs a form body, as the shipped apps do.
    public func post(_ path: String, form: [String: String], headers: HTTPFields = [:]) async throws -> Answer {
        let body = form.sorted { $0.key < $1.key }
            .map { "\(Self.escape($0.key))=\(Self.escape($0.value))" }
            .joined(separator: "&")
        var headers = headers
        headers[.contentType] = "application/x-www-form-urlencoded;charset=utf-8"
        return try await send(path, method: .post, body: body, headers: headers)
    }

    public func send(_ path: String, method: HTTPRequest.Method, body: String, headers: HTTPFields = [:]) async throws -> Answer {
        let response = try await http.execute(
            uri: "/t/\(tenantID)/\(pluginID)\(path)", method: method, headers: headers, body: ByteBuffer(string: body))
        let text = String(buffer: response.body)
        return Answer(status: response.status, json: JSONValue.parse(text) ?? .string(text))
    }

    static func escape(_ value: String) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }
}

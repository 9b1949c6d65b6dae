import Foundation

/// What a plugin or the admin API asks the engine to create.
public struct NewRoom: Sendable {
    public var pluginID: String
    public var name: String
    public var owner: AccountID
    /// nil: the tenant's policy for the plugin.
    public var ttlSeconds: Int?
    public var capacity: Int?
    /// Set by the engine when the plugin's rooms have an IM chatroom.
    public var imChatroomID: String?
    /// Plugin attributes, a JSON object as text.
    public var attributes: String
    public var reservation: Reservation?
    /// Set by the engine when the room's id must be known before it exists
    /// (as its IM chatroom's id).
    public var id: RoomID?
    /// The owner is the room's first member from its creation.
    public var ownerJoins: Bool
    /// The admin API's creation data as asked (Colyseus' `onCreate(options)`),
    /// decoded once by the plugin's `creation(from:)`. A client route cannot
    /// set it: it hands its `Creation` typed (`ClientCall.createRoom(_:creating:of:…)`).
    public var options: JSONValue

    /// A client route's room: its plugin is the route's (`ClientCall.createRoom`).
    public init(
        name: String, owner: AccountID, ttlSeconds: Int? = nil, capacity: Int? = nil,
        attributes: String = "{}", reservation: Reservation? = nil, ownerJoins: Bool = false
    ) {
        self.init(pluginID: "", name: name, owner: owner, ttlSeconds: ttlSeconds, capacity: capacity, attributes: attributes,
                  reservation: reservation, ownerJoins: ownerJoins, options: .object([:]))
    }

    public init(
        pluginID: String, name: String, owner: AccountID, ttlSeconds: Int? = nil, capacity: Int? = nil,
        attributes: String = "{}", reservation: Reservation? = nil, ownerJoins: Bool = false, options: JSONValue = .object([:])
    ) {
        self.pluginID = pluginID
        self.name = name
        self.owner = owner
        self.ttlSeconds = ttlSeconds
        self.capacity = capacity
        self.attributes = attributes
        self.reservation = reservation
        self.ownerJoins = ownerJoins
        self.options = options
    }
}

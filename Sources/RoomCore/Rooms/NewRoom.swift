import Foundation

/// What a plugin or the admin API asks the engine to create.
public struct NewRoom: Sendable {
    public var pluginID: String
    public var name: String
    public var owner: AccountID
    /// nil: the tenant's policy for the plugin.
    public var ttlSeconds: Int?
    public var capacity: Int?
    public var imChatroomID: String?
    /// Plugin attributes, a JSON object as text.
    public var attributes: String
    public var reservation: Reservation?
    /// An id taken earlier with `RoomEngine.allocateRoomID()` (when the
    /// room's id must be known before it exists, e.g. as its IM chatroom's id).
    public var id: RoomID?
    /// The owner is the room's first member from its creation.
    public var ownerJoins: Bool

    public init(
        pluginID: String, name: String, owner: AccountID, ttlSeconds: Int? = nil, capacity: Int? = nil,
        imChatroomID: String? = nil, attributes: String = "{}", reservation: Reservation? = nil,
        id: RoomID? = nil, ownerJoins: Bool = false
    ) {
        self.id = id
        self.ownerJoins = ownerJoins
        self.pluginID = pluginID
        self.name = name
        self.owner = owner
        self.ttlSeconds = ttlSeconds
        self.capacity = capacity
        self.imChatroomID = imChatroomID
        self.attributes = attributes
        self.reservation = reservation
    }
}

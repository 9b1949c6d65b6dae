import Foundation
import PostgresNIO

/// An IM provider whose chatrooms are rows of the server's own database
/// (the local IM): a room's chatroom is written by the room's own create
/// statement instead of a statement and a commit of its own before it
/// (#28, item 3: a local create went from 3 round trips before the room's
/// transaction to none).
public protocol ChatroomsInRoomDatabase: IMProvider {
    /// Appends an `INSERT … SELECT` that opens the chatroom of each row of
    /// the CTE `rooms` (columns `tenant_id`, `im_chatroom_id`, `name`,
    /// `owner`), with `now` as its creation time. A chatroom that exists
    /// already fails the statement (its unique index), as `createChatroom`
    /// with that id would be refused.
    func appendChatroomInsert(to sql: inout PostgresQuery.StringInterpolation, fromRooms rooms: String, now: Date)
}

extension Tenant {
    /// The tenant's IM when its chatrooms live in this database.
    var chatroomsInRoomDatabase: (any ChatroomsInRoomDatabase)? {
        ((im as? TimeLimitedIM)?.base ?? im) as? any ChatroomsInRoomDatabase
    }
}

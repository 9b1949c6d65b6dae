import Foundation
import PostgresNIO

/// An IM provider whose chatrooms are rows of the server's own database
/// (the local IM): a room's chatroom is written by the room's own create
/// statement instead of a statement and a commit of its own before it
/// (#28, item 3: a local create went from 3 round trips before the room's
/// transaction to none).
public protocol ChatroomsInRoomDatabase: IMProvider {
    /// The tenant whose chatrooms these are: the statements it appends bind it.
    var tenantID: TenantID { get }

    /// Appends an `INSERT … SELECT` that opens the chatroom of each row of
    /// the CTE `rooms` (columns `tenant_id`, `im_chatroom_id`, `name`,
    /// `owner`), with `now` as its creation time. A chatroom that exists
    /// already fails the statement (its unique index), as `createChatroom`
    /// with that id would be refused.
    func appendChatroomInsert(to sql: inout PostgresQuery.StringInterpolation, fromRooms rooms: String, now: Date)

    /// Appends CTEs (`name AS (…), …`, no trailing comma) that do what
    /// `closeChatroom(chatroom, operator:, notifyExt:)` does, only if the CTE
    /// `gate` returned a row; the CTE `im_closed` returns the chatroom's id
    /// when this statement closed it (not when it was closed already).
    func appendChatroomClose(to sql: inout PostgresQuery.StringInterpolation, _ chatroom: String, operator: AccountID, notifyExt: String?,
                             now: Date, onlyIf gate: String)

    /// Appends CTEs that do what delivering `effects` (chatroom messages
    /// and queue puts to `chatroom`, notifications) does, in order, only if
    /// the CTE `gate` returned a row.
    func appendChatroomEffects(to sql: inout PostgresQuery.StringInterpolation, _ effects: [IMEffect], chatroom: String, now: Date,
                               onlyIf gate: String)
}

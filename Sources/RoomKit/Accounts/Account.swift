import Foundation

/// A tenant's end user.
public struct Account: Sendable, Equatable {
    public var accid: AccountID
    public var nickname: String
    public var avatar: String
    public var role: String

    public init(accid: AccountID, nickname: String, avatar: String = "", role: String = "user") {
        self.accid = accid
        self.nickname = nickname
        self.avatar = avatar
        self.role = role
    }
}

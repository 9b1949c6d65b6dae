/// A column of a table, keyed by `tenant_id`, whose rows name an account.
///
/// A plugin declares the rows that keep an account in use (a headset's
/// binding to its phone): the retention purge never removes a guest one of
/// them names. A provider declares the rows that belong to the account (the
/// local IM's stored notifications): they go with it.
public struct AccountReference: Sendable, Equatable {
    public let table: String
    public let column: String

    /// Names are code, not input; a malformed one is a programming error.
    public init(table: String, column: String) {
        precondition(Self.isIdentifier(table) && Self.isIdentifier(column), "AccountReference: \(table).\(column) is not an SQL identifier")
        self.table = table
        self.column = column
    }

    static func isIdentifier(_ name: String) -> Bool {
        guard let first = name.first, first.isLetter || first == "_" else { return false }
        return name.count <= 63 && name.allSatisfy { ($0.isASCII && ($0.isLetter || $0.isNumber)) || $0 == "_" }
    }
}

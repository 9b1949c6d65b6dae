/// Integers in query parameters as the admin contract states them: decimal
/// digits only. Swift's `Int64("+4")` is 4, so a cursor of "+4" (which the
/// contract's `^[0-9]{1,18}$` refuses) was taken; schemathesis found it.
enum DecimalText {
    static func int64(_ text: String) -> Int64? {
        guard (1...18).contains(text.utf8.count), text.utf8.allSatisfy({ (48...57).contains($0) }) else { return nil }
        return Int64(text)
    }

    static func int(_ text: String) -> Int? {
        int64(text).map(Int.init)
    }
}

/// Every order of `count` moves (index permutations): a race test checks that
/// what happened is what one of them would have left (at most 6 moves: 720).
public func serialOrders(of count: Int) -> [[Int]] {
    precondition(count <= 6, "too many orders to try")
    func permutations(_ items: [Int]) -> [[Int]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { index in
            var rest = items
            let first = rest.remove(at: index)
            return permutations(rest).map { [first] + $0 }
        }
    }
    return permutations(Array(0..<count))
}

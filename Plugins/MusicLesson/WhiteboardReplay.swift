import RoomKit

/// A recorded lesson's final picture: the stored packets replayed in order,
/// applying undo, per-page clear, clear ack, sync prepare and sync. Pure.
/// Strokes are indexed by id and by author, so a move or an undo costs the
/// same however many strokes the lesson has (replay is linear in commands).
public struct WhiteboardReplay: Sendable {
    public struct Stroke: Sendable, Equatable {
        var id: Int
        public var uid: AccountID
        public var page: Int
        public var rgb: Int
        public var points: [[Double]]
    }

    public struct Doc: Sendable, Equatable, Encodable {
        public var docId: String
        public var pageCount: Int
        public var currentPage: Int
        public var type: Int

        public init(docId: String, pageCount: Int, currentPage: Int, type: Int) {
            self.docId = docId
            self.pageCount = pageCount
            self.currentPage = currentPage
            self.type = type
        }
    }

    /// One stored append: who sent it and its commands.
    public struct Packet: Sendable {
        public var author: AccountID
        public var commands: [WhiteboardCommand]

        public init(author: AccountID, commands: [WhiteboardCommand]) {
            self.author = author
            self.commands = commands
        }
    }

    /// Strokes in drawing order.
    public var strokes: [Stroke] { order.compactMap { byID[$0] } }
    public private(set) var doc: Doc?
    private var byID: [Int: Stroke] = [:]
    /// Stroke ids in drawing order, removed ones included until read.
    private var order: [Int] = []
    /// Each author's stroke ids in drawing order, for undo.
    private var byAuthor: [AccountID: [Int]] = [:]
    /// The stroke each author is drawing now, by stroke id.
    private var open: [AccountID: Int] = [:]
    private var nextID = 0
    /// While a sync of `uid` is in progress (end 0 seen), its strokes are being replaced.
    private var syncing: Set<AccountID> = []

    public init() {}

    public static func replay(_ packets: [Packet]) -> WhiteboardReplay {
        var replay = WhiteboardReplay()
        for packet in packets { replay.apply(packet) }
        return replay
    }

    var currentPage: Int { doc?.currentPage ?? 0 }

    public mutating func apply(_ packet: Packet) {
        // Strokes belong to the sender, or to the user a sync command names.
        var owner = packet.author
        for command in packet.commands {
            switch command.kind {
            case .start:
                guard let point = command.point else { continue }
                begin(owner, point)
            case .move, .end:
                guard let point = command.point else { continue }
                if let id = open[owner], byID[id] != nil {
                    byID[id]?.points.append([point.x, point.y])
                } else {
                    begin(owner, point)
                }
                if command.kind == .end { open[owner] = nil }
            case .undo:
                while let id = byAuthor[packet.author]?.popLast() {
                    guard byID.removeValue(forKey: id) != nil else { continue }
                    if open[packet.author] == id { open[packet.author] = nil }
                    break
                }
            case .clear:
                let page = currentPage
                remove { $0.page == page }
            case .clearAck:
                let page = currentPage
                remove { $0.page == page && $0.uid == packet.author }
            case .syncPrepare:
                remove { _ in true }
            case .sync:
                let uid = command.values[0]
                if !syncing.contains(uid) { remove { $0.uid == uid } }
                if command.values[1] == "1" { syncing.remove(uid) } else { syncing.insert(uid) }
                owner = uid
            case .docShare:
                doc = Doc(docId: command.values[0], pageCount: Int(command.values[1]) ?? 1,
                          currentPage: Int(command.values[2]) ?? 0, type: Int(command.values[3]) ?? 0)
            case .packetID, .syncRequest, .syncPrepareAck, .mark, .markEnd:
                continue
            }
        }
    }

    private mutating func begin(_ owner: AccountID, _ point: (x: Double, y: Double, rgb: Int, page: Int)) {
        nextID += 1
        byID[nextID] = Stroke(id: nextID, uid: owner, page: point.page, rgb: point.rgb, points: [[point.x, point.y]])
        order.append(nextID)
        byAuthor[owner, default: []].append(nextID)
        open[owner] = nextID
    }

    /// Removes strokes; a stroke being drawn that is removed stays closed.
    private mutating func remove(where condition: (Stroke) -> Bool) {
        byID = byID.filter { !condition($0.value) }
        order.removeAll { byID[$0] == nil }
        open = open.filter { byID[$0.value] != nil }
    }

    /// Pages that have strokes, in page order; strokes in drawing order.
    public var pages: [(pageIndex: Int, strokes: [Stroke])] {
        let strokes = strokes
        return Dictionary(grouping: strokes, by: \.page).sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }
}

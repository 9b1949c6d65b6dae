import RoomCore

/// A recorded lesson's final picture: the stored packets replayed in order,
/// applying undo, per-page clear, clear ack, sync prepare and sync. Pure.
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

    public private(set) var strokes: [Stroke] = []
    public private(set) var doc: Doc?
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
                if let id = open[owner], let index = strokes.firstIndex(where: { $0.id == id }) {
                    strokes[index].points.append([point.x, point.y])
                } else {
                    begin(owner, point)
                }
                if command.kind == .end { open[owner] = nil }
            case .undo:
                if let last = strokes.last(where: { $0.uid == packet.author }) { remove { $0.id == last.id } }
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
        strokes.append(Stroke(id: nextID, uid: owner, page: point.page, rgb: point.rgb, points: [[point.x, point.y]]))
        open[owner] = nextID
    }

    /// Removes strokes; a stroke being drawn that is removed stays closed.
    private mutating func remove(where condition: (Stroke) -> Bool) {
        strokes.removeAll(where: condition)
        let alive = Set(strokes.map(\.id))
        open = open.filter { alive.contains($0.value) }
    }

    /// Pages that have strokes, in page order; strokes in drawing order.
    public var pages: [(pageIndex: Int, strokes: [Stroke])] {
        Dictionary(grouping: strokes, by: \.page).keys.sorted().map { page in (page, strokes.filter { $0.page == page }) }
    }
}

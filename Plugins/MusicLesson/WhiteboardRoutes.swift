import Foundation
import RoomKit

/// `/room/whiteboard/append` and `/room/whiteboard/replay`: the lesson's
/// whiteboard recorded by the server, relayed to the other party, and
/// replayed into its final strokes.
enum WhiteboardRoutes {
    typealias Settings = MusicLessonPlugin.Settings
    static let maxData = 64 * 1024

    struct Appended: Encodable, Sendable {
        let seq: Int64
        /// false when this (author, seq) was stored before: nothing changed.
        let stored: Bool
    }

    struct Replay: Encodable, Sendable {
        struct Page: Encodable, Sendable {
            let pageIndex: Int
            let strokes: [Stroke]
        }

        struct Stroke: Encodable, Sendable {
            let uid: String
            let rgb: Int
            let points: [[Double]]
        }

        let pages: [Page]
        let doc: WhiteboardReplay.Doc?

        enum Keys: String, CodingKey { case pages, doc }

        /// `doc` is null, not absent, before any document was shared.
        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(pages, forKey: .pages)
            try container.encode(doc, forKey: .doc)
        }
    }

    static let routes: [ClientRoute<Settings>] = [
        ClientRoute("/room/whiteboard/append", handle: append),
        ClientRoute("/room/whiteboard/replay", effect: .reads, handle: replay),
    ]

    static func append(_ call: ClientCall<Settings>) async throws -> any Encodable & Sendable {
        let (account, lesson) = try await party(call)
        guard let seq = try call.parameters.int64("seq") else { throw ParameterError(field: "seq", reason: "is required") }
        guard seq >= 0 else { throw ParameterError(field: "seq", reason: "must be 0 or more") }
        let data = try call.parameters.required("data")
        guard data.utf8.count <= maxData else { throw ParameterError(field: "data", reason: "must be at most \(maxData) bytes") }
        if case .failure(let error) = WhiteboardParser.parse(data) { throw ParameterError(field: "data", reason: error.description) }
        let peer = account.accid == lesson.teacher.accid ? lesson.student.accid : lesson.teacher.accid
        // A party banned from the classroom (a teacher's kick with a
        // duration) draws nothing on it (#41), by the engine's one ban rule.
        _ = try await call.rooms.enter(lesson.roomID, as: account.accid)
        // The classroom is locked and live for the append: a close racing it waits or wins.
        let stored = try await call.rooms.mutate(lesson.roomID) { tx in
            guard tx.room.reservation?.claimedAt != nil else {
                throw ClientError(code: LessonCodes.teacherNotIn, message: "the teacher has not opened the classroom yet")
            }
            // The room is locked: the count and the insert are one step.
            let store = LessonStore(tables: tx.tables)
            let packets = try await store.whiteboardPackets(lesson.roomID)
            guard packets < call.settings.whiteboardPackets else {
                throw ClientError(code: LessonCodes.whiteboardFull,
                                  message: "the lesson's whiteboard holds its limit of \(call.settings.whiteboardPackets) packets")
            }
            guard try await store.append(lesson.roomID, author: account.accid, seq: seq, data: data, at: tx.now) else { return false }
            let relay = JSONText.encode(Relay(command: 2, data: .init(roomId: String(lesson.roomID), from: account.accid, seq: seq, data: data)))
            tx.emit(.im(.notification(from: account.accid, to: peer, attach: relay, storeOffline: false), roomID: lesson.roomID))
            return true
        }
        return Appended(seq: seq, stored: stored)
    }

    /// The final picture, also after the lesson ended.
    static func replay(_ call: ClientCall<Settings>) async throws -> Replay {
        let (_, lesson) = try await party(call)
        let packets = try await LessonStore(tables: call.tables).whiteboard(lesson.roomID).map { author, data in
            WhiteboardReplay.Packet(author: author, commands: (try? WhiteboardParser.parse(data).get()) ?? [])
        }
        let replay = WhiteboardReplay.replay(packets)
        return Replay(pages: replay.pages.map { page in
            Replay.Page(pageIndex: page.pageIndex, strokes: page.strokes.map { Replay.Stroke(uid: $0.uid, rgb: $0.rgb, points: $0.points) })
        }, doc: replay.doc)
    }

    /// The relay notice the other party's app receives.
    struct Relay: Encodable {
        struct Data: Encodable {
            let roomId: String
            let from: String
            let seq: Int64
            let data: String
        }
        let command: Int
        let data: Data
    }

    /// The caller and the lesson; only its teacher and its student may draw or replay.
    static func party(_ call: ClientCall<Settings>) async throws -> (Account, LessonStore.Lesson) {
        let account = try await call.caller()
        let roomID = try LessonRoutes.roomID(call.parameters)
        guard let lesson = try await LessonStore(tables: call.tables).lesson(roomID) else { throw ClientError(code: NetEase.roomNotFound, message: "no lesson \(roomID)") }
        guard account.accid == lesson.teacher.accid || account.accid == lesson.student.accid else {
            throw ClientError(code: NetEase.forbidden, message: "this lesson is for its teacher and its student only")
        }
        return (account, lesson)
    }
}

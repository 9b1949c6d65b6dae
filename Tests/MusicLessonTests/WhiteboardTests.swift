import MusicLesson
import Testing

/// The seed's whiteboard grammar: a real parser, and a replay into the
/// final strokes per page.
@Suite struct WhiteboardTests {
    func parse(_ text: String) throws -> [WhiteboardCommand] { try WhiteboardParser.parse(text).get() }

    @Test(arguments: [
        "2:0.3333,0.75,15988473;",
        "1:0.1,0.2,255;2:0.15,0.25,255;3:0.2,0.3,255;",
        "1:0.1,0.2,255,3;2:0.15,0.25,255,3;3:0.2,0.3,255,3;",
        "4:;5:17;6:;7:;8:;10:;11:;13:;",
        "9:uid_C,0;1:0.5,0.5,16777215;3:0.6,0.6,16777215;",
        "12:0,1,0;14:doc-42,12,3,1;",
    ])
    func seedStringsRoundTrip(_ text: String) throws {
        #expect(WhiteboardParser.encode(try parse(text)) == text)
    }

    @Test func theSeedsMovePoint() throws {
        let move = try #require(try parse("2:0.3333,0.75,15988473").first)
        #expect(move.kind == .move)
        #expect(move.point?.x == 0.3333 && move.point?.y == 0.75 && move.point?.rgb == 0xF3F6F9 && move.point?.page == 0)
        #expect(try parse("1:0,1,0,2").first?.point?.page == 2, "the music app's page index")
    }

    @Test(arguments: [
        ("15:0.1,0.1,1", 1, "unknown type 15"),
        ("x:1", 1, "must start with a type number"),
        ("1:0.1,0.2", 1, "takes 3-4 values, not 2"),
        ("1:0.1,0.2,255;2:1.5,0.2,255", 2, "x must be a number from 0 to 1"),
        ("3:0.1,-0.2,255", 1, "y must be a number from 0 to 1"),
        ("2:0.1,0.2,16777216", 1, "rgb must be an integer from 0 to 16777215"),
        ("2:0.1,0.2,red", 1, "rgb must be an integer"),
        ("1:0.1,0.2,1,-1", 1, "pageIndex must be an integer"),
        ("4:1", 1, "type 4 takes 0 values, not 1"),
        ("5:", 1, "type 5 takes 1 values, not 0"),
        ("9:uid,2", 1, "end must be an integer from 0 to 1"),
        ("14:doc,0,0,1", 1, "pageCount must be an integer from 1"),
        ("12:0.5,0.5", 1, "type 12 takes 3 values"),
        ("", 0, "no command"),
    ])
    func malformedCommandsAreRefusedByName(_ text: String, _ index: Int, _ reason: String) {
        guard case .failure(let error) = WhiteboardParser.parse(text) else { Issue.record("\(text) was accepted"); return }
        #expect(error.index == index, "\(text)")
        #expect(error.description.contains(reason), "\(error)")
    }

    /// Teacher and student draw on two pages; the student undoes; the teacher
    /// clears page 1 (after sharing a document on it); a sync replaces the
    /// student's strokes with what the teacher holds.
    @Test func aScriptedLessonReplaysToTheExpectedStrokes() throws {
        let script: [(String, String)] = [
            ("teacher", "1:0.1,0.1,255,0;2:0.2,0.2,255,0;3:0.3,0.3,255,0;"),
            ("student", "1:0.5,0.5,65280,0;3:0.6,0.6,65280,0;"),
            ("student", "1:0.7,0.7,65280,0;3:0.8,0.8,65280,0;"),
            ("student", "4:;"),
            ("teacher", "14:score-1,4,1,0;"),
            ("teacher", "1:0.1,0.9,16711680,1;3:0.2,0.9,16711680,1;"),
            ("student", "1:0.4,0.4,65280,1;3:0.5,0.4,65280,1;"),
            ("teacher", "6:;"),
            ("teacher", "1:0.3,0.3,0,1;3:0.35,0.35,0,1;"),
            ("teacher", "9:student,0;1:0.55,0.55,65280,0;"),
            ("teacher", "9:student,1;2:0.56,0.56,65280,0;3:0.57,0.57,65280,0;"),
        ]
        let packets = try script.map { WhiteboardReplay.Packet(author: $0.0, commands: try parse($0.1)) }
        let replay = WhiteboardReplay.replay(packets)
        #expect(replay.doc == WhiteboardReplay.Doc(docId: "score-1", pageCount: 4, currentPage: 1, type: 0))
        let pages = replay.pages
        #expect(pages.map(\.pageIndex) == [0, 1])
        #expect(pages[0].strokes.map(\.uid) == ["teacher", "student"])
        #expect(pages[0].strokes[0].points == [[0.1, 0.1], [0.2, 0.2], [0.3, 0.3]])
        #expect(pages[0].strokes[1].points == [[0.55, 0.55], [0.56, 0.56], [0.57, 0.57]], "the sync replaced the student's strokes")
        #expect(pages[1].strokes.map(\.uid) == ["teacher"] && pages[1].strokes[0].points == [[0.3, 0.3], [0.35, 0.35]], "clear emptied page 1 only")

        // Sync prepare clears everything.
        let cleared = WhiteboardReplay.replay(packets + [WhiteboardReplay.Packet(author: "teacher", commands: try parse("10:"))])
        #expect(cleared.pages.isEmpty)
    }

    @Test func clearAckRemovesOnlyTheSendersStrokesOnTheCurrentPage() throws {
        let packets = [
            WhiteboardReplay.Packet(author: "a", commands: try parse("1:0.1,0.1,1;3:0.2,0.2,1;")),
            WhiteboardReplay.Packet(author: "b", commands: try parse("1:0.3,0.3,2;3:0.4,0.4,2;")),
            WhiteboardReplay.Packet(author: "b", commands: try parse("7:")),
        ]
        #expect(WhiteboardReplay.replay(packets).pages.first?.strokes.map(\.uid) == ["a"])
    }
}

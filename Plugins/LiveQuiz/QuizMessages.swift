import Foundation
import Logging
import RoomKit

/// The chatroom messages (msgType 100) the quiz apps decode, built from
/// stored questions and counted answers, sent as engine side effects in order.
enum QuizMessages {
    struct Envelope<Data: Encodable>: Encodable {
        let cmd: Int
        let data: Data
    }

    struct QuestionData: Encodable {
        let questionInfo: HostRoutes.Question
        let time: Int64
    }

    struct FinalData: Encodable {
        let winnerCount: Int
        let bonus: Double
        let winnerSample: [String]
        let time: Int64
    }

    /// cmd 1: the question without its answer.
    static func question(_ question: StoredQuestion, time: Int64) -> String {
        JSONText.encode(Envelope(cmd: 1, data: QuestionData(questionInfo: HostRoutes.Question(
            questionId: question.id, question: question.question, order: question.id,
            options: question.options.enumerated().map { HostRoutes.Option(optionId: $0.offset, content: $0.element, selectCount: nil) },
            rightAnswer: nil), time: time)))
    }

    /// cmd 4: the stored right answer and how many chose each option.
    static func answer(_ result: HostRoutes.Result, time: Int64) -> String {
        JSONText.encode(Envelope(cmd: 4, data: QuestionData(questionInfo: HostRoutes.Question(
            questionId: result.questionId, question: "", order: result.questionId, options: result.options, rightAnswer: result.rightAnswer), time: time)))
    }

    /// cmd 5: winners and each one's share.
    static func final(_ bonus: HostRoutes.BonusInfo, time: Int64) -> String {
        JSONText.encode(Envelope(cmd: 5, data: FinalData(winnerCount: bonus.winnerCount, bonus: bonus.bonus, winnerSample: bonus.winnerSample, time: time)))
    }

    /// A chatroom message (msgType 100) from the host to the game's room.
    static func chatroom(_ body: String, room: Room) -> [OutboxMessage] {
        guard let chatroom = room.imChatroomID else { return [] }
        return [.im(.chatroomMessage(chatroom: chatroom, from: room.owner, type: "100", body: body, persist: false), roomID: room.id)]
    }
}

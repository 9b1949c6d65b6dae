import Foundation
import LiveQuiz
import Testing

/// The answer rules as a pure function.
@Suite struct QuizRulesTests {
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    var open: Date { now.addingTimeInterval(5) }

    func question(_ id: Int, current: Bool = true, closes: Date? = nil) -> QuizQuestion {
        QuizQuestion(id: id, optionCount: 3, rightAnswer: 1, windowEndsAt: closes ?? open, isCurrent: current)
    }

    @Test func rightWrongReviveAndOut() {
        let fresh = QuizPlayer(status: .playing, revives: 1)
        let right = QuizRules.judge(1, to: question(1), by: fresh, alreadyAnswered: false, now: now)
        #expect(right == .init(result: 1, accepted: true, player: QuizPlayer(status: .playing, revives: 1, answered: 1)))
        let revived = QuizRules.judge(0, to: question(2), by: right.player, alreadyAnswered: false, now: now)
        #expect(revived == .init(result: 0, accepted: true, player: QuizPlayer(status: .playing, revives: 0, answered: 2)), "the automatic revive")
        let out = QuizRules.judge(2, to: question(3), by: revived.player, alreadyAnswered: false, now: now)
        #expect(out == .init(result: 0, accepted: true, player: QuizPlayer(status: .out, revives: 0, answered: 3)), "wrong twice: out")
        #expect(QuizRules.isWinner(right.player!, questionCount: 1) && !QuizRules.isWinner(out.player!, questionCount: 3))
    }

    @Test func invalidAnswersCountNothing() {
        let player = QuizPlayer(status: .playing, revives: 1, answered: 1)
        let invalid = { (judgement: QuizRules.Judgement) in judgement.result == 2 && !judgement.accepted }
        #expect(invalid(QuizRules.judge(1, to: question(2, closes: now), by: player, alreadyAnswered: false, now: now)), "late")
        #expect(invalid(QuizRules.judge(1, to: question(2), by: player, alreadyAnswered: true, now: now)), "second answer")
        #expect(invalid(QuizRules.judge(1, to: question(2, current: false), by: player, alreadyAnswered: false, now: now)), "not the current question")
        #expect(invalid(QuizRules.judge(1, to: question(2), by: QuizPlayer(status: .out, revives: 0, answered: 1), alreadyAnswered: false, now: now)), "out")
        #expect(invalid(QuizRules.judge(1, to: question(1), by: QuizPlayer(status: .spectator, revives: 1), alreadyAnswered: false, now: now)), "spectator")
        #expect(invalid(QuizRules.judge(1, to: question(1), by: nil, alreadyAnswered: false, now: now)), "never entered")
        let missed = QuizRules.judge(1, to: question(3), by: player, alreadyAnswered: false, now: now)
        #expect(missed.result == 2 && !missed.accepted && missed.player?.status == .out, "a missed question puts the player out")
    }

    @Test func winnersSplitTheBonusFlooredToTheCent() {
        #expect(QuizRules.share(bonusCents: 10_000, winners: 3) == 3_333)
        #expect(QuizRules.share(bonusCents: 100, winners: 7) == 14)
        #expect(QuizRules.share(bonusCents: 100, winners: 0) == 0)
    }
}

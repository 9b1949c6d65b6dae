import Foundation

/// A player as the rules see them.
public struct QuizPlayer: Sendable, Equatable {
    public enum Status: String, Sendable { case playing, out, spectator }

    public var status: Status
    /// Automatic revives left.
    public var revives: Int
    /// Questions answered in a row from the first.
    public var answered: Int

    public init(status: Status, revives: Int, answered: Int = 0) {
        self.status = status
        self.revives = revives
        self.answered = answered
    }
}

/// A question as the rules see it.
public struct QuizQuestion: Sendable, Equatable {
    /// 1-based, also its order.
    public var id: Int
    public var optionCount: Int
    public var rightAnswer: Int
    public var windowEndsAt: Date?
    /// The question most recently published.
    public var isCurrent: Bool

    public init(id: Int, optionCount: Int, rightAnswer: Int, windowEndsAt: Date?, isCurrent: Bool) {
        self.id = id
        self.optionCount = optionCount
        self.rightAnswer = rightAnswer
        self.windowEndsAt = windowEndsAt
        self.isCurrent = isCurrent
    }
}

/// The answer rules as a pure function: who answers what, when; out comes
/// the result the player sees (0 wrong, 1 right, 2 invalid), whether the
/// answer counts, and the player as they become. No I/O.
public enum QuizRules {
    public struct Judgement: Sendable, Equatable {
        public var result: Int
        /// Counted in the question's `selectCount`s.
        public var accepted: Bool
        public var player: QuizPlayer?

        public init(result: Int, accepted: Bool, player: QuizPlayer?) {
            self.result = result
            self.accepted = accepted
            self.player = player
        }
    }

    public static func judge(_ option: Int, to question: QuizQuestion, by player: QuizPlayer?, alreadyAnswered: Bool, now: Date) -> Judgement {
        let invalid = Judgement(result: 2, accepted: false, player: player)
        guard var player, player.status == .playing, question.isCurrent, !alreadyAnswered,
              let closes = question.windowEndsAt, now < closes else { return invalid }
        // A question missed before this one puts the player out.
        guard player.answered == question.id - 1 else {
            player.status = .out
            return Judgement(result: 2, accepted: false, player: player)
        }
        player.answered += 1
        if option == question.rightAnswer { return Judgement(result: 1, accepted: true, player: player) }
        if player.revives > 0 { player.revives -= 1 } else { player.status = .out }
        return Judgement(result: 0, accepted: true, player: player)
    }

    /// Still playing after every question.
    public static func isWinner(_ player: QuizPlayer, questionCount: Int) -> Bool {
        player.status == .playing && player.answered == questionCount
    }

    /// Each winner's share in cents: the bonus split equally, floored to the cent.
    public static func share(bonusCents: Int64, winners: Int) -> Int64 {
        winners > 0 ? bonusCents / Int64(winners) : 0
    }
}

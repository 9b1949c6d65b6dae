from enum import StrEnum

class LiveQuizPlugin(StrEnum):
    LIVE_QUIZ = "live-quiz"

    def __str__(self) -> str:
        return str(self.value)

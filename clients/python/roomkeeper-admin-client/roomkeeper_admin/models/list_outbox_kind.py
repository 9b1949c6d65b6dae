from enum import StrEnum

class ListOutboxKind(StrEnum):
    IM = "im"
    LIVE = "live"
    WEBHOOK = "webhook"

    def __str__(self) -> str:
        return str(self.value)

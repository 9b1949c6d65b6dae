from enum import StrEnum

class AttemptOutcome(StrEnum):
    DEAD = "dead"
    DELIVERED = "delivered"
    RETRY = "retry"

    def __str__(self) -> str:
        return str(self.value)

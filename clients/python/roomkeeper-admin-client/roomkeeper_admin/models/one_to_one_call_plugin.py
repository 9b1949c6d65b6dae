from enum import StrEnum

class OneToOneCallPlugin(StrEnum):
    ONE_TO_ONE_CALL = "one-to-one-call"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class RoomSessionCloseReasonType3Type1(StrEnum):
    DISSOLVED = "dissolved"
    EXPIRED = "expired"
    LAPSED = "lapsed"

    def __str__(self) -> str:
        return str(self.value)

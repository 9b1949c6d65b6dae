from enum import StrEnum

class SealmicPlugin(StrEnum):
    SEALMIC = "sealmic"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class HeadsetLivePlugin(StrEnum):
    HEADSET_LIVE = "headset-live"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class AudioChatroomPlugin(StrEnum):
    AUDIO_CHATROOM = "audio-chatroom"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum

class MusicLessonPlugin(StrEnum):
    MUSIC_LESSON = "music-lesson"

    def __str__(self) -> str:
        return str(self.value)

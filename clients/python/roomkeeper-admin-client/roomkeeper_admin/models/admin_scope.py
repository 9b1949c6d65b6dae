from enum import StrEnum

class AdminScope(StrEnum):
    KEYS = "keys"
    MODERATION = "moderation"
    READ = "read"
    ROOMS = "rooms"
    WEBHOOKS = "webhooks"

    def __str__(self) -> str:
        return str(self.value)

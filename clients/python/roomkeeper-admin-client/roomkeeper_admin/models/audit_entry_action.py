from enum import StrEnum

class AuditEntryAction(StrEnum):
    ACCOUNT_REVOKE = "account.revoke"
    KEY_CREATE = "key.create"
    KEY_REVOKE = "key.revoke"
    MEMBER_BAN = "member.ban"
    MEMBER_KICK = "member.kick"
    MEMBER_MUTE = "member.mute"
    MEMBER_UNBAN = "member.unban"
    MEMBER_UNMUTE = "member.unmute"
    OUTBOX_REPLAY = "outbox.replay"
    OUTBOX_RETRY = "outbox.retry"
    ROOM_CREATE = "room.create"
    ROOM_DISSOLVE = "room.dissolve"
    ROOM_EXTEND = "room.extend"
    TENANTS_RELOAD = "tenants.reload"
    TENANT_BAN = "tenant.ban"
    TENANT_MOVE = "tenant.move"
    TENANT_UNBAN = "tenant.unban"
    WEBHOOK_TEST = "webhook.test"

    def __str__(self) -> str:
        return str(self.value)

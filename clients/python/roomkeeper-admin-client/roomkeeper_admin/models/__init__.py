""" Contains all the data models used in inputs/outputs """

from .activity import Activity
from .activity_buckets_item import ActivityBucketsItem
from .admin_key import AdminKey
from .admin_key_page import AdminKeyPage
from .admin_scope import AdminScope
from .attempt import Attempt
from .attempt_outcome import AttemptOutcome
from .attempt_page import AttemptPage
from .audio_chatroom import AudioChatroom
from .audio_chatroom_plugin import AudioChatroomPlugin
from .audio_chatroom_room_options import AudioChatroomRoomOptions
from .audit_entry import AuditEntry
from .audit_entry_action import AuditEntryAction
from .audit_entry_detail import AuditEntryDetail
from .audit_page import AuditPage
from .ban import Ban
from .ban_page import BanPage
from .budget import Budget
from .budgets import Budgets
from .event_page import EventPage
from .extend import Extend
from .feed_event import FeedEvent
from .feed_event_data import FeedEventData
from .get_contract_response_200 import GetContractResponse200
from .get_tenant_usage_format import GetTenantUsageFormat
from .get_tenant_usage_granularity import GetTenantUsageGranularity
from .headset_live import HeadsetLive
from .headset_live_plugin import HeadsetLivePlugin
from .headset_live_room_options import HeadsetLiveRoomOptions
from .kick import Kick
from .kicked import Kicked
from .list_outbox_kind import ListOutboxKind
from .list_outbox_status import ListOutboxStatus
from .list_room_bans_active import ListRoomBansActive
from .list_room_mutes_active import ListRoomMutesActive
from .list_rooms_state import ListRoomsState
from .list_tenant_bans_active import ListTenantBansActive
from .live_quiz import LiveQuiz
from .live_quiz_plugin import LiveQuizPlugin
from .live_quiz_room_options import LiveQuizRoomOptions
from .live_quiz_room_options_questions_type_0_item_type_0 import LiveQuizRoomOptionsQuestionsType0ItemType0
from .live_quiz_room_options_questions_type_0_item_type_1 import LiveQuizRoomOptionsQuestionsType0ItemType1
from .live_quiz_room_options_questions_type_0_item_type_2 import LiveQuizRoomOptionsQuestionsType0ItemType2
from .live_quiz_room_options_questions_type_0_item_type_3 import LiveQuizRoomOptionsQuestionsType0ItemType3
from .live_quiz_room_options_questions_type_0_item_type_4 import LiveQuizRoomOptionsQuestionsType0ItemType4
from .me import Me
from .music_lesson import MusicLesson
from .music_lesson_plugin import MusicLessonPlugin
from .music_lesson_room_options import MusicLessonRoomOptions
from .new_admin_key import NewAdminKey
from .new_ban import NewBan
from .one_to_one_call import OneToOneCall
from .one_to_one_call_plugin import OneToOneCallPlugin
from .one_to_one_call_room_options import OneToOneCallRoomOptions
from .outbox_entry import OutboxEntry
from .outbox_entry_page import OutboxEntryPage
from .outbox_entry_status import OutboxEntryStatus
from .plugin import Plugin
from .plugin_page import PluginPage
from .problem import Problem
from .problem_code import ProblemCode
from .reload import Reload
from .replay import Replay
from .replayed import Replayed
from .revoked import Revoked
from .room import Room
from .room_attributes import RoomAttributes
from .room_detail import RoomDetail
from .room_detail_events_item import RoomDetailEventsItem
from .room_detail_members_item import RoomDetailMembersItem
from .room_page import RoomPage
from .room_reservation_type_0 import RoomReservationType0
from .room_session import RoomSession
from .room_session_close_reason_type_1 import RoomSessionCloseReasonType1
from .room_session_close_reason_type_2_type_1 import RoomSessionCloseReasonType2Type1
from .room_session_close_reason_type_3_type_1 import RoomSessionCloseReasonType3Type1
from .room_session_page import RoomSessionPage
from .room_session_state import RoomSessionState
from .room_state import RoomState
from .sealmic import Sealmic
from .sealmic_plugin import SealmicPlugin
from .sealmic_room_options import SealmicRoomOptions
from .stats import Stats
from .stats_outbox import StatsOutbox
from .stats_rooms import StatsRooms
from .stats_rooms_additional_property import StatsRoomsAdditionalProperty
from .tenant import Tenant
from .tenant_limits import TenantLimits
from .tenant_limits_quotas_item import TenantLimitsQuotasItem
from .tenant_limits_usage import TenantLimitsUsage
from .tenant_page import TenantPage
from .tenant_plugins_item import TenantPluginsItem
from .usage_page import UsagePage
from .usage_page_granularity import UsagePageGranularity
from .usage_period import UsagePeriod
from .webhook_endpoint import WebhookEndpoint
from .webhook_endpoint_page import WebhookEndpointPage

__all__ = (
    "Activity",
    "ActivityBucketsItem",
    "AdminKey",
    "AdminKeyPage",
    "AdminScope",
    "Attempt",
    "AttemptOutcome",
    "AttemptPage",
    "AudioChatroom",
    "AudioChatroomPlugin",
    "AudioChatroomRoomOptions",
    "AuditEntry",
    "AuditEntryAction",
    "AuditEntryDetail",
    "AuditPage",
    "Ban",
    "BanPage",
    "Budget",
    "Budgets",
    "EventPage",
    "Extend",
    "FeedEvent",
    "FeedEventData",
    "GetContractResponse200",
    "GetTenantUsageFormat",
    "GetTenantUsageGranularity",
    "HeadsetLive",
    "HeadsetLivePlugin",
    "HeadsetLiveRoomOptions",
    "Kick",
    "Kicked",
    "ListOutboxKind",
    "ListOutboxStatus",
    "ListRoomBansActive",
    "ListRoomMutesActive",
    "ListRoomsState",
    "ListTenantBansActive",
    "LiveQuiz",
    "LiveQuizPlugin",
    "LiveQuizRoomOptions",
    "LiveQuizRoomOptionsQuestionsType0ItemType0",
    "LiveQuizRoomOptionsQuestionsType0ItemType1",
    "LiveQuizRoomOptionsQuestionsType0ItemType2",
    "LiveQuizRoomOptionsQuestionsType0ItemType3",
    "LiveQuizRoomOptionsQuestionsType0ItemType4",
    "Me",
    "MusicLesson",
    "MusicLessonPlugin",
    "MusicLessonRoomOptions",
    "NewAdminKey",
    "NewBan",
    "OneToOneCall",
    "OneToOneCallPlugin",
    "OneToOneCallRoomOptions",
    "OutboxEntry",
    "OutboxEntryPage",
    "OutboxEntryStatus",
    "Plugin",
    "PluginPage",
    "Problem",
    "ProblemCode",
    "Reload",
    "Replay",
    "Replayed",
    "Revoked",
    "Room",
    "RoomAttributes",
    "RoomDetail",
    "RoomDetailEventsItem",
    "RoomDetailMembersItem",
    "RoomPage",
    "RoomReservationType0",
    "RoomSession",
    "RoomSessionCloseReasonType1",
    "RoomSessionCloseReasonType2Type1",
    "RoomSessionCloseReasonType3Type1",
    "RoomSessionPage",
    "RoomSessionState",
    "RoomState",
    "Sealmic",
    "SealmicPlugin",
    "SealmicRoomOptions",
    "Stats",
    "StatsOutbox",
    "StatsRooms",
    "StatsRoomsAdditionalProperty",
    "Tenant",
    "TenantLimits",
    "TenantLimitsQuotasItem",
    "TenantLimitsUsage",
    "TenantPage",
    "TenantPluginsItem",
    "UsagePage",
    "UsagePageGranularity",
    "UsagePeriod",
    "WebhookEndpoint",
    "WebhookEndpointPage",
)

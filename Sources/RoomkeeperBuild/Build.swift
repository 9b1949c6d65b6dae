import AudioChatroom
import HeadsetLive
import LiveQuiz
import MusicLesson
import OneToOneCall
import RoomCore
import RoomProviders
import SealMic

/// The one place concrete plugins and providers meet: what this build
/// serves. The executable and the tests of the example tenants read it.
public enum Build {
    /// Every scenario plugin this build serves.
    public static let plugins = PluginRegistry([
        AnyRoomPlugin(AudioChatroomPlugin()), AnyRoomPlugin(SealMicPlugin()), AnyRoomPlugin(MusicLessonPlugin()), AnyRoomPlugin(LiveQuizPlugin()),
        AnyRoomPlugin(HeadsetLivePlugin()), AnyRoomPlugin(OneToOneCallPlugin()),
    ])

    /// Schema folders of the providers, applied after core and before the plugins'.
    public static let extraSchemaFolders = StandardProviderCatalog.schemaFolders
}

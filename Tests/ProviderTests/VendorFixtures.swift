import AudioChatroom
import Foundation
import MusicLesson
import RoomCore
import RoomTestSupport
import SealMic

/// Secrets reach tenant files only through the environment, as in production.
enum VendorSecrets {
    static let netease = "RK_TEST_NETEASE_SECRET"
    static let rongcloud = "RK_TEST_RONGCLOUD_SECRET"
    static let tencentKey = "RK_TEST_TENCENT_KEY"
    static let tencentSecretKey = "RK_TEST_TENCENT_SECRET_KEY"
    static let tencentCallbackKey = "RK_TEST_TENCENT_CALLBACK_KEY"
    /// Tencent's documented push key vector (its URL anti-leech example).
    static let pushKey = "e12c46f2612d5106e2034781ab261ca3"
    static let callbackKey = "callback-key"

    static func export() {
        setenv(netease, FakeNetEase.appSecret, 1)
        setenv(rongcloud, FakeRongCloud.appSecret, 1)
        setenv(tencentKey, pushKey, 1)
        setenv(tencentSecretKey, FakeTencent.secretKey, 1)
        setenv(tencentCallbackKey, callbackKey, 1)
    }
}

/// Tenant tables for a server whose providers are fakes on 127.0.0.1.
enum VendorTables {
    static let registry = PluginRegistry([AnyRoomPlugin(AudioChatroomPlugin()), AnyRoomPlugin(SealMicPlugin()), AnyRoomPlugin(MusicLessonPlugin())])

    static func netease(_ url: String, timeout: String = "2s") -> String {
        """
        [providers.im]
        kind = "netease"
        appKey = "\(FakeNetEase.appKey)"
        appSecretEnv = "\(VendorSecrets.netease)"
        baseURL = "\(url)"
        timeout = "\(timeout)"
        """
    }

    static func rongcloud(_ url: String, backup: String, timeout: String = "2s") -> String {
        """
        [providers.im]
        kind = "rongcloud"
        appKey = "\(FakeRongCloud.appKey)"
        appSecretEnv = "\(VendorSecrets.rongcloud)"
        baseURL = "\(url)"
        backupURL = "\(backup)"
        timeout = "\(timeout)"
        """
    }

    static func tencent(_ url: String) -> String {
        """
        [providers.live]
        kind = "tencent"
        pushDomain = "\(FakeTencent.domain)"
        pushKeyEnv = "\(VendorSecrets.tencentKey)"
        playDomain = "play.example.com"
        playKeyEnv = "\(VendorSecrets.tencentKey)"
        secretId = "\(FakeTencent.secretID)"
        secretKeyEnv = "\(VendorSecrets.tencentSecretKey)"
        callbackKeyEnv = "\(VendorSecrets.tencentCallbackKey)"
        apiURL = "\(url)/"
        """
    }

    static let plugins = """
        [plugins.audio-chatroom]

        [plugins.sealmic]

        [plugins.music-lesson]
        """

    static func fixture(_ providers: String, clock: any RoomClock = ManualClock()) async throws -> ServerFixture {
        VendorSecrets.export()
        let table = providers + "\n\n" + plugins + "\n"
        return try await ServerFixture(pluginTables: [table, table], registry: registry, clock: clock, sweepInterval: .seconds(3_600))
    }
}

/// Polls until `condition` holds or `seconds` pass.
func eventually(_ seconds: Double = 10, _ condition: @Sendable () async throws -> Bool) async throws -> Bool {
    let deadline = ContinuousClock.now + .milliseconds(Int64(seconds * 1000))
    while ContinuousClock.now < deadline {
        if try await condition() { return true }
        try await Task.sleep(for: .milliseconds(25))
    }
    return try await condition()
}

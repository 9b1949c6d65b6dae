import Foundation
import RoomCore
import RoomProviders
import RoomTestSupport
import Testing

/// Tencent Cloud Live: signed URLs, and API 3.0 calls checked by a fake
/// that recomputes TC3-HMAC-SHA256.
@Suite struct TencentLiveTests {
    @Test func pushAndPullURLsCarryThePublishedTxSecret() async throws {
        let fixture = try await VendorTables.fixture(VendorTables.tencent("http://127.0.0.1:9"))
        let live = fixture.tenants[0].live
        let expiry = Date(timeIntervalSince1970: 0x5C27_1099)
        #expect(try await live.pushURL(stream: "test", expiresAt: expiry)
            == "rtmp://push.example.com/live/test?txSecret=f85a2ab363fe4deaffef9754d79da6fe&txTime=5C271099")
        let pull = try await live.pullURLs(stream: "test", expiresAt: expiry)
        #expect(pull.flv == "https://play.example.com/live/test.flv?txSecret=f85a2ab363fe4deaffef9754d79da6fe&txTime=5C271099")
        #expect(pull.hls.hasPrefix("https://play.example.com/live/test.m3u8?txSecret=") && pull.rtmp.hasPrefix("rtmp://play.example.com/live/test?"))
    }

    @Test func onlineStreamsAndDropThroughAPI3() async throws {
        let fake = FakeTencent()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.tencent(url))
            let live = fixture.tenants[0].live
            fake.publish("s1")
            fake.publish("s2")
            #expect(try await live.onlineStreams() == ["s1", "s2"])
            try await live.dropStream("s1")
            #expect(fake.online == ["s2"])
            try await live.dropStream("s1")
            #expect(fake.vendor.calls.map { $0.headers["x-tc-action"] } == ["DescribeLiveStreamOnlineList", "DropLiveStream"],
                    "dropping a stream that is gone is success")
        }
        #expect(fake.vendor.refused == 1)
    }

    @Test func aWrongSecretKeyIsRefused() async throws {
        let fake = FakeTencent()
        try await fake.vendor.run { url in
            setenv("RK_TEST_TENCENT_WRONG", "wrong", 1)
            VendorSecrets.export()
            let table = VendorTables.tencent(url).replacingOccurrences(of: "secretKeyEnv = \"\(VendorSecrets.tencentSecretKey)\"", with: "secretKeyEnv = \"RK_TEST_TENCENT_WRONG\"")
            let fixture = try await ServerFixture(pluginTables: [table + "\n" + VendorTables.plugins + "\n"], registry: VendorTables.registry)
            await #expect(throws: MediaError.rejected(operation: "DescribeLiveStreamOnlineList", code: "AuthFailure.SignatureFailure", message: "signature")) {
                try await fixture.tenants[0].live.onlineStreams()
            }
        }
    }

    /// Red5 builds RTMP URLs whose stream names differ for every session.
    @Test func red5SessionsHaveUnguessableStreamNames() async throws {
        let fixture = try await VendorTables.fixture("[providers.intercom]\nkind = \"red5\"\nhost = \"red5.example.com\"\n")
        let intercom = fixture.tenants[0].intercom
        let expiry = Date().addingTimeInterval(600)
        let first = try await intercom.session(for: 42, expiresAt: expiry)
        let second = try await intercom.session(for: 42, expiresAt: expiry)
        #expect(first.speakURL.hasPrefix("rtmp://red5.example.com:1935/live/intercom-42-") && first.listenURL == first.speakURL)
        #expect(first.speakURL != second.speakURL)
        #expect(first.speakURL.split(separator: "-").last?.count == 32, "128 random bits")
    }
}

import Foundation
import RoomCore
import RoomTestSupport
import Testing

/// music-lesson's `/user/reg` while the IM vendor is down: the answer is the
/// IM error (800), and no account is left behind without an IM account, so
/// the same registration succeeds once the vendor is back.
@Suite struct RegistrationOutageTests {
    @Test func aRegistrationTheIMVendorRefusedLeavesNoAccount() async throws {
        let fake = FakeNetEase()
        try await fake.vendor.run { url in
            let fixture = try await VendorTables.fixture(VendorTables.netease(url, timeout: "1s"), clock: SystemClock())
            try await fixture.live { http in
                let base = "/t/\(fixture.id(0))/music-lesson"
                let accid = "s" + uniqueID()
                let form = "accid=\(accid)&nickname=Sam&password=\(String(repeating: "a", count: 32))"
                fake.vendor.mode = .unavailable
                #expect(try await http.form("\(base)/user/reg", form)["code"] == .number(800))
                #expect(try await http.form("\(base)/user/check", "accid=\(accid)")["code"] == .number(902), "no account without its IM account")
                fake.vendor.mode = .normal
                let registered = try await http.form("\(base)/user/reg", form)
                #expect(registered["code"] == .number(200), "\(registered)")
                #expect(fake.vendor.calls(to: "/user/create.action").count == 1)
            }
        }
    }
}

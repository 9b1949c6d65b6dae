import Foundation
import RoomCore
import RoomProviders
import Testing

/// Every test vector the vendors' documentation publishes, kept here.
@Suite struct ProviderVectorTests {
    @Test func netEaseRequestCheckSum() {
        #expect(NetEaseSigning.checkSum(secret: "secret", nonce: "nonce", curTime: "1700000000") == "c0b87c883bf8a70941d7e81c14cc7c7e7ccd3ba2")
    }

    @Test func netEaseCallbackMD5AndCheckSum() {
        let md5 = NetEaseSigning.bodyMD5(Array("{}".utf8))
        #expect(md5 == "99914b932bd37a50b983c5e7c90ae93b")
        #expect(NetEaseSigning.callbackCheckSum(secret: "secret", md5: md5, curTime: "1700000000000") == "7acb2d62dfaeb0df3424787e7b6c7e008d58637e")
    }

    @Test func rongCloudSignature() {
        #expect(RongCloudSigning.signature(secret: "Y1W2MeFwwwRxa0", nonce: "14314", timestamp: "1408710653000") == "30be0bbca9c9b2e27578701e9fda2358a814c88f")
    }

    @Test func tencentTxSecretAndTxTime() {
        #expect(TencentSigning.txTime(Date(timeIntervalSince1970: 0x5C27_1099)) == "5C271099")
        #expect(TencentSigning.txSecret(key: "e12c46f2612d5106e2034781ab261ca3", stream: "test", txTime: "5C271099") == "f85a2ab363fe4deaffef9754d79da6fe")
    }

    @Test func tencentTC3Signature() {
        let request = TencentSigning.TC3Request(
            secretID: "AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE", secretKey: "Gu5t9xGARNpq86cd98joQYCN3EXAMPLE", service: "cvm",
            host: "cvm.tencentcloudapi.com", contentType: "application/json; charset=utf-8", timestamp: 1_551_113_065,
            body: #"{"Limit": 1, "Filters": [{"Values": ["\u672a\u547d\u540d"], "Name": "instance-name"}]}"#)
        #expect(request.date == "2019-02-25")
        #expect(request.signature == "72e494ea809ad7a8c8f7a4507b9bddcbaa8e581f516e8da2f66e2c5a96525168")
        #expect(request.authorization.hasPrefix("TC3-HMAC-SHA256 Credential=AKIDz8krbsJ5yKBZQpn74WFkmLPx3EXAMPLE/2019-02-25/cvm/tc3_request, SignedHeaders=content-type;host, Signature=72e4"))
    }

    @Test func tencentCallbackSign() {
        #expect(TencentSigning.callbackSign(key: "key", t: "1700000000") == "06d851185e908b68ddf9a345983ed7b3")
    }
}

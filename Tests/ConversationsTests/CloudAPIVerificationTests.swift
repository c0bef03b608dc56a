import Foundation
import Testing
@testable import Conversations

@Suite struct CloudAPIVerificationTests {
    private let token = "meatyhamhock"

    private func answer(_ query: String, verifyToken: String = "meatyhamhock") throws -> CloudAPIVerification {
        let items = try #require(URLComponents(string: "https://jadwal.example/webhooks/whatsapp?" + query)?.queryItems)
        return CloudAPIVerification(queryItems: items, verifyToken: verifyToken)
    }

    @Test func theReadmeRequestIsAnsweredWithItsChallenge() throws {
        let result = try answer("hub.mode=subscribe&hub.challenge=1158201444&hub.verify_token=meatyhamhock")
        #expect(result == .accept(challenge: "1158201444"))
    }

    @Test func underscoredNamesAreReadToo() throws {
        #expect(try answer("hub_mode=subscribe&hub_challenge=1158201444&hub_verify_token=meatyhamhock")
            == .accept(challenge: "1158201444"))
        #expect(try answer("hub_verify_token=meatyhamhock&hub.challenge=42&hub_mode=subscribe") == .accept(challenge: "42"))
    }

    @Test func theChallengeIsEchoedAsSent() throws {
        #expect(try answer("hub.mode=subscribe&hub.challenge=abc%20def&hub.verify_token=meatyhamhock")
            == .accept(challenge: "abc def"))
        #expect(try answer("hub.mode=subscribe&hub.challenge=a%20b&hub.verify_token=p%26q", verifyToken: "p&q")
            == .accept(challenge: "a b"))
    }

    @Test func aWrongTokenIsRefused() throws {
        for wrong in ["meatyhamhocK", "meatyhamhoc", "meatyhamhockx", "MEATYHAMHOCK", "", " meatyhamhock"] {
            let query = "hub.mode=subscribe&hub.challenge=1&hub.verify_token="
                + (wrong.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")
            #expect(try answer(query) == .refuse(.verifyTokenMismatch), "token \(wrong.debugDescription)")
        }
    }

    @Test func aMissingTokenIsRefused() throws {
        #expect(try answer("hub.mode=subscribe&hub.challenge=1") == .refuse(.verifyTokenMissing))
    }

    @Test func theModeMustBeSubscribe() throws {
        #expect(try answer("hub.mode=unsubscribe&hub.challenge=1&hub.verify_token=meatyhamhock")
            == .refuse(.modeNotSubscribe("unsubscribe")))
        #expect(try answer("hub.challenge=1&hub.verify_token=meatyhamhock") == .refuse(.modeNotSubscribe(nil)))
        #expect(CloudAPIVerification.Refusal.modeNotSubscribe(nil).description == "hub.mode is missing, not \"subscribe\"")
    }

    @Test func aMissingOrEmptyChallengeIsRefused() throws {
        #expect(try answer("hub.mode=subscribe&hub.verify_token=meatyhamhock") == .refuse(.challengeMissing))
        #expect(try answer("hub.mode=subscribe&hub.challenge=&hub.verify_token=meatyhamhock") == .refuse(.challengeMissing))
    }

    @Test func withoutAConfiguredTokenNothingIsAccepted() throws {
        #expect(try answer("hub.mode=subscribe&hub.challenge=1&hub.verify_token=", verifyToken: "")
            == .refuse(.noVerifyTokenConfigured))
        #expect(try answer("hub.mode=subscribe&hub.challenge=1", verifyToken: "") == .refuse(.noVerifyTokenConfigured))
    }

    @Test func theFirstOfARepeatedParameterCounts() throws {
        #expect(try answer("hub.mode=subscribe&hub.challenge=1&hub.verify_token=wrong&hub.verify_token=meatyhamhock")
            == .refuse(.verifyTokenMismatch))
        #expect(try answer("hub.mode=subscribe&hub.challenge=1&hub.verify_token=meatyhamhock&hub_verify_token=wrong")
            == .accept(challenge: "1"))
    }

    @Test func tokensCompareExactly() {
        #expect(CloudAPIVerification.sameToken("meatyhamhock", "meatyhamhock"))
        #expect(!CloudAPIVerification.sameToken("meatyhamhock", "meatyhamhocK"))
        #expect(!CloudAPIVerification.sameToken("", "meatyhamhock"))
        #expect(CloudAPIVerification.sameToken("توكن", "توكن"))
    }
}

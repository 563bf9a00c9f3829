import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreSigning
import TestSupport
import Testing

@testable import StoreServer

/// What a real-time answer makes the cancellation sheet show, and how a performance test's
/// outcomes become Apple's result, without a network: the Python suite sends the requests.
@Suite struct RetentionChoiceTests {
    static let plus = "com.example.storefront.premiumplus.monthly"

    static func fixture() async throws -> (ServerFixture, UUID) {
        let fixture = try await ServerFixture()
        let id = UUID()
        let message = RetentionMessage(
            id: id, state: .approved, header: "Stay a month more", body: "Half price next month.", image: nil,
            headerPosition: nil, bulletPoints: [])
        _ = try await fixture.service.retention.uploadMessage(message, limit: 10)
        return (fixture, id)
    }

    static func answer(_ json: String) throws -> RealtimeResponseBody {
        try JSONDecoder().decode(RealtimeResponseBody.self, from: Data(json.utf8))
    }

    @Test func aSwitchPlanMustNameAnotherPlanOfTheGroup() async throws {
        let (fixture, id) = try await Self.fixture()
        let service = fixture.service
        let message = id.uuidString
        let (shown, _) = try await service.choice(
            Self.answer(#"{"alternateProduct": {"messageIdentifier": "\#(message)", "productId": "\#(Self.plus)"}}"#),
            productId: ServerFixture.monthly)
        #expect(shown?.switchToProductId == Self.plus && shown?.source == .realtime)
        for other in [ServerFixture.gems, ServerFixture.monthly] {
            let (refused, reason) = try await service.choice(
                Self.answer(#"{"alternateProduct": {"messageIdentifier": "\#(message)", "productId": "\#(other)"}}"#),
                productId: ServerFixture.monthly)
            #expect(refused == nil && reason?.contains("another plan of the group") == true)
        }
    }

    @Test func anOfferIsReadFromEitherSignatureAndOneChoiceIsTheRule() async throws {
        let (fixture, id) = try await Self.fixture()
        let service = fixture.service
        let v1 =
            #"{"promotionalOffer": {"messageIdentifier": "\#(id)", "promotionalOfferSignatureV1": {"offerIdentifier": "half", "productId": "p", "nonce": "n", "timestamp": 1, "keyId": "k", "encodedSignature": "s"}}}"#
        #expect(
            try await service.choice(Self.answer(v1), productId: ServerFixture.monthly).0?.promotionalOfferId == "half")
        let payload = Base64URL.encode(Data(#"{"offerIdentifier": "third"}"#.utf8))
        let v2 =
            #"{"promotionalOffer": {"messageIdentifier": "\#(id)", "promotionalOfferSignatureV2": "e30.\#(payload).c2ln"}}"#
        #expect(
            try await service.choice(Self.answer(v2), productId: ServerFixture.monthly).0?.promotionalOfferId == "third"
        )
        let two = #"{"message": {"messageIdentifier": "\#(id)"}, "promotionalOffer": {"messageIdentifier": "\#(id)"}}"#
        let (none, reason) = try await service.choice(Self.answer(two), productId: ServerFixture.monthly)
        #expect(none == nil && reason == "the real-time answer chose 2 options; it must choose exactly one")
        _ = try await service.retention.reviewMessage(id, .pending)
        let (pending, why) = try await service.choice(
            Self.answer(#"{"message": {"messageIdentifier": "\#(id)"}}"#), productId: ServerFixture.monthly)
        #expect(pending == nil && why?.contains("APPROVED") == true)
    }

    @Test func aPerformanceTestPassesFromNinetyPercentInTime() {
        func outcomes(_ succeeded: Int, _ failed: Int) -> [RealtimeCall.Outcome] {
            (0..<succeeded).map {
                RealtimeCall.Outcome(result: .success, detail: nil, latency: .milliseconds($0 + 1), body: nil)
            }
                + (0..<failed).map { _ in
                    RealtimeCall.Outcome(result: .timedOut, detail: nil, latency: .milliseconds(700), body: nil)
                }
        }
        let passed = RetentionPerformance.result(outcomes(45, 5), target: "http://127.0.0.1:9/r")
        #expect(passed.result == "PASS" && passed.successRate == 90 && passed.failures == ["TIMED_OUT": 5])
        let failed = RetentionPerformance.result(outcomes(44, 6), target: "http://127.0.0.1:9/r")
        #expect(failed.result == "FAIL" && failed.successRate == 88)
        let times = RetentionPerformance.result(outcomes(100, 0), target: "t").responseTimes
        #expect(times == .init(average: 50, p50: 50, p90: 90, p95: 95, p99: 99))
    }
}

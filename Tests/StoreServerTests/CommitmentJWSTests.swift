import Foundation
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSigning
import TestSupport
import Testing

@testable import StoreServer

/// Apple's fields for a monthly plan with a 12-month commitment in what the store signs:
/// `billingPlanType` and `commitmentInfo` in every auto-renewable transaction's JWS,
/// `renewalBillingPlanType` and `commitmentInfo` in the renewal info, with the engine's values.
@Suite struct CommitmentJWSTests {
    static let yearly = StoreFixture.yearly

    @Test func aMonthlyPaymentsJWSCarriesItsPlaceInTheCommitment() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(Self.yearly, account: "lena", plan: .monthly).transaction
        let wire = try #require(try await fixture.service.wire([bought]).first)
        let payload = try JWSVerifier(fixture.service.signer).verify(try #require(wire.jwsRepresentation)).get()
        let commitment = try #require(bought.terms?.commitment)
        #expect(payload.billingPlanType == "MONTHLY")
        #expect(payload.price == 4990, "the price stays this payment's")
        #expect(payload.commitmentInfo?.billingPeriodNumber == 1)
        #expect(payload.commitmentInfo?.totalBillingPeriods == 12)
        #expect(payload.commitmentInfo?.commitmentPrice == 59880)
        #expect(payload.commitmentInfo?.commitmentExpiresDate == commitment.expirationDate.epochMilliseconds)
    }

    @Test func everyAutoRenewablesJWSNamesItsPlanAndNoOtherProductsDoes() async throws {
        let fixture = try await ServerFixture()
        let verifier = JWSVerifier(fixture.service.signer)
        let upFront = try await fixture.buy(Self.yearly, account: "lena").transaction
        let gems = try await fixture.buy(ServerFixture.gems, account: "lena").transaction
        let wires = try await fixture.service.wire([upFront, gems])
        let payloads = try wires.map { try verifier.verify(try #require($0.jwsRepresentation)).get() }
        #expect(payloads.map(\.billingPlanType) == ["BILLED_UPFRONT", nil])
        #expect(payloads.map(\.commitmentInfo) == [nil, nil])

        let status = try #require(try await fixture.service.serverAPI.subscriptionStatuses(account: "lena").first)
        let renewal = SignedRenewalInfoPayload(
            status, catalog: fixture.service.catalog, environment: .sandbox, signedAt: fixture.clock.now())
        #expect(renewal.renewalBillingPlanType == "BILLED_UPFRONT")
        #expect(renewal.commitmentInfo == nil)
    }

    @Test func renewalInfoMidCommitmentIsSignedWithTheCommitmentsOwnStatus() async throws {
        let fixture = try await ServerFixture()
        let latest = try await CommitmentWireTests.thirdPaymentCancelled(fixture)
        let status = try #require(try await fixture.service.serverAPI.subscriptionStatuses(account: "lena").first)
        let renewal = SignedRenewalInfoPayload(
            status, catalog: fixture.service.catalog, environment: .sandbox, signedAt: fixture.clock.now())
        #expect(renewal.autoRenewStatus == 1, "the months left are billed")
        #expect(renewal.renewalPrice == 4990)
        #expect(renewal.renewalBillingPlanType == "MONTHLY")
        let commitment = try #require(renewal.commitmentInfo)
        #expect(commitment.commitmentAutoRenewStatus == 0)
        #expect(commitment.commitmentAutoRenewProductId == Self.yearly)
        #expect(commitment.commitmentRenewalBillingPlanType == "MONTHLY")
        #expect(commitment.commitmentRenewalPrice == 4990)
        #expect(commitment.commitmentRenewalDate == latest.terms?.commitment?.expirationDate.epochMilliseconds)
    }
}

import Foundation
import HTTPTypes
import HummingbirdTesting
import StoreAPI
import StoreCore
import StoreKitModel
import TestSupport
import Testing

@testable import StoreServer

/// Premium Yearly's monthly plan with a 12-month commitment on the wire: `/v1` carries the plan
/// and the commitment so a client rebuilds the engine's record, and `POST /v1/payments` takes the
/// plan.
@Suite struct CommitmentWireTests {
    static let yearly = StoreFixture.yearly

    /// lena's first monthly payment, renewed twice, with auto-renew turned off in the third month.
    static func thirdPaymentCancelled(_ fixture: ServerFixture) async throws -> Transaction {
        let first = try await fixture.buy(Self.yearly, account: "lena", plan: .monthly).transaction
        for _ in 0..<2 { _ = try await fixture.service.store.perform(.forceRenewal(first.id)) }
        let latest = try #require(try await fixture.service.store.transactions(account: "lena").first)
        _ = try await fixture.service.store.perform(.setAutoRenew(latest.id, false))
        return latest
    }

    @Test func aTransactionsPlanAndCommitmentComeBackAsTheEngineKeepsThem() async throws {
        let fixture = try await ServerFixture()
        let latest = try await Self.thirdPaymentCancelled(fixture)
        let wire = try #require(try await fixture.service.wire([latest]).first)
        #expect(wire.billingPlan == "monthly")
        #expect(wire.commitment?.price == "59.88")
        let decoded = try JSONDecoder().decode(WireTransaction.self, from: JSONEncoder().encode(wire)).transaction()
        let terms = try #require(latest.terms)
        #expect(terms.commitment?.billingPeriodNumber == 3)
        #expect(decoded.terms == Self.toMilliseconds(terms))
    }

    @Test func renewalInfoMidCommitmentComesBackAsTheEngineKeepsIt() async throws {
        let fixture = try await ServerFixture()
        _ = try await Self.thirdPaymentCancelled(fixture)
        let renewal = try #require(try await fixture.service.store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.willAutoRenew, "the months left are billed")
        #expect(renewal.commitment?.willAutoRenew == false)
        let wire = WireRenewal(renewal)
        #expect(wire.renewalBillingPlan == "monthly")
        #expect(wire.commitment?.renewalPrice == "4.99")
        let decoded = try JSONDecoder().decode(WireRenewal.self, from: JSONEncoder().encode(wire)).info()
        var expected = renewal
        expected.commitment?.renewalDate = Self.toMilliseconds(renewal.commitment?.renewalDate)!
        #expect(decoded == expected)
    }

    @Test func aRenewalInfoOrTransactionFromAnOlderServerIsUpFront() throws {
        let old = #"{"willAutoRenew": true, "autoRenewProductId": "p", "isInBillingRetry": false}"#
        let info = try JSONDecoder().decode(WireRenewal.self, from: Data(old.utf8)).info()
        #expect(info.renewalBillingPlan == .upFront)
        #expect(info.commitment == nil)
        let unknown =
            #"{"willAutoRenew": true, "autoRenewProductId": "p", "isInBillingRetry": false, "renewalBillingPlan": "weekly"}"#
        #expect(throws: WireFormatError.self) {
            try JSONDecoder().decode(WireRenewal.self, from: Data(unknown.utf8)).info()
        }
    }

    @Test func aPaymentChoosesThePlanAndItsAnswerCarriesTheCommitment() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let key = UUID().uuidString
            let body = #"{"account":"lena","productId":"\#(Self.yearly)","billingPlan":"monthly"}"#
            let first = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": key])
            #expect(first.status == .created, "\(String(buffer: first.body))")
            let id = try #require((try json(first)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let done = try await client.awaitUpdate(account: "lena", after: 0, transactionId: id)
            let transaction = try #require(done.update["transaction"] as? [String: Any])
            #expect(transaction["price"] as? String == "4.99")
            #expect(transaction["billingPlan"] as? String == "monthly")
            let commitment = try #require(transaction["commitment"] as? [String: Any])
            #expect(commitment["billingPeriodNumber"] as? Int == 1)
            #expect(commitment["totalBillingPeriods"] as? Int == 12)
            #expect(commitment["price"] as? String == "59.88")

            // The plan is part of what a key stands for: the same plan replays, another conflicts.
            let retry = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": key])
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let upFront = body.replacingOccurrences(of: "monthly", with: "upFront")
            let other = try await client.send(.post, "/v1/payments", json: upFront, headers: ["Idempotency-Key": key])
            #expect(other.status == .conflict)
        }
    }

    @Test func aPlanStoreKitDoesNotKnowIsRefusedNamingTheField() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            for (plan, words) in [
                (#""yearly""#, "\"yearly\" is not a billing plan; expected upFront or monthly"),
                ("3", "wrong type"),
            ] {
                let body = #"{"account":"lena","productId":"\#(Self.yearly)","billingPlan":\#(plan)}"#
                let answer = try await client.send(
                    .post, "/v1/payments", json: body, headers: ["Idempotency-Key": UUID().uuidString])
                #expect(answer.status == .unprocessableContent)
                let error = try #require(try json(answer)["error"] as? [String: Any])
                #expect(error["field"] as? String == "billingPlan")
                #expect((error["message"] as? String)?.contains(words) == true, "\(error)")
            }
            let history = try await client.object(.get, "/v1/accounts/lena/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true, "nothing was charged")
        }
    }

    @Test func theUnitedStatesIsRefusedThePlanAsStoreKitRefusesIt() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let body = #"{"account":"alice","productId":"\#(Self.yearly)","billingPlan":"monthly"}"#
            let answer = try await client.send(
                .post, "/v1/payments", json: body, headers: ["Idempotency-Key": UUID().uuidString])
            #expect(answer.status == .created)
            let id = try #require((try json(answer)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let done = try await client.awaitUpdate(account: "alice", after: 0, transactionId: id)
            let transaction = try #require(done.update["transaction"] as? [String: Any])
            #expect(transaction["state"] as? String == "failed")
            #expect(
                (transaction["error"] as? [String: Any])?["code"] as? Int
                    == SKErrorCode.storeProductNotAvailable.rawValue)
        }
    }

    @Test func onlyAnAutoRenewableCarriesAPlan() async throws {
        let fixture = try await ServerFixture()
        let upFront = try await fixture.buy(Self.yearly, account: "lena").transaction
        let gems = try await fixture.buy(ServerFixture.gems, account: "lena").transaction
        let wires = try await fixture.service.wire([upFront, gems])
        #expect(wires.map(\.billingPlan) == ["upFront", nil])
        #expect(wires.map(\.commitment) == [nil, nil])
        let renewal = try #require(try await fixture.service.store.entitlements(account: "lena").first?.renewal)
        #expect(WireRenewal(renewal).renewalBillingPlan == "upFront")
        #expect(WireRenewal(renewal).commitment == nil)
    }

    /// `terms` with its dates as the wire carries them, to the millisecond.
    static func toMilliseconds(_ terms: TransactionTerms) -> TransactionTerms {
        var terms = terms
        terms.expirationDate = toMilliseconds(terms.expirationDate)
        terms.commitment = terms.commitment.map {
            TransactionCommitment(
                billingPeriodNumber: $0.billingPeriodNumber, totalBillingPeriods: $0.totalBillingPeriods,
                price: $0.price, expirationDate: toMilliseconds($0.expirationDate)!)
        }
        return terms
    }

    static func toMilliseconds(_ date: Date?) -> Date? {
        date.map { Date(epochMilliseconds: $0.epochMilliseconds) }
    }
}

import Foundation
import StoreClient
import StoreCore
import StoreKitModel
import TestSupport
import Testing

/// The TUI and the CLI reach a server through `RemoteStore`: the plan a payment chooses goes to
/// `storefront serve`, and the plan, the commitment and the renewal info come back as the
/// server's store keeps them.
@Suite struct RemoteCommitmentTests {
    static let token = "commitment-admin-token-0123456789"
    static let yearly = "com.example.storefront.premium.yearly"

    /// A fresh `storefront serve` on products.json, and a `RemoteStore` following `account` on it.
    static func serve(_ label: String, following account: String) throws -> (ServeProcess, RemoteStore) {
        let catalog = try StoreFixture.catalog()
        let server = try ServeProcess.start(
            db: scratchDirectory(label).appendingPathComponent("server"), arguments: ["--admin-token", token])
        let store = RemoteStore(url: server.baseURL, catalog: catalog, adminToken: token, followedAccount: account)
        return (server, store)
    }

    @Test func aMonthlyPlanBoughtThroughRemoteStoreComesBackWithItsCommitment() async throws {
        let (server, store) = try Self.serve("remote-commitment", following: "lena")
        defer { server.stop() }
        let started = try await store.add(Payment(productId: Self.yearly, account: "lena", billingPlan: .monthly))
        let renewed = try await store.perform(.forceRenewal(started.id))
        let second = try #require(renewed.first { $0.transaction.state == .purchased }?.transaction)
        let first = try #require(try await store.transactions(account: "lena").first { $0.id == started.id })

        #expect(first.terms?.billingPlan == .monthly)
        #expect(first.terms?.price == Decimal(string: "4.99"))
        let commitment = try #require(first.terms?.commitment)
        #expect(commitment.billingPeriodNumber == 1)
        #expect(commitment.totalBillingPeriods == 12)
        #expect(commitment.price == Decimal(string: "59.88"))
        #expect(second.terms?.commitment?.billingPeriodNumber == 2)
        #expect(second.terms?.commitment?.price == commitment.price)

        _ = try await store.perform(.setAutoRenew(second.id, false))
        let renewal = try #require(try await store.entitlements(account: "lena").first?.renewal)
        #expect(renewal.willAutoRenew, "the months left are billed")
        #expect(renewal.renewalBillingPlan == .monthly)
        #expect(
            renewal.commitment
                == RenewalCommitment(
                    willAutoRenew: false, autoRenewProductId: Self.yearly, renewalBillingPlan: .monthly,
                    renewalPrice: Decimal(string: "4.99"),
                    renewalDate: try #require(second.terms?.commitment?.expirationDate)))
    }

    @Test func theUnitedStatesIsRefusedTheMonthlyPlan() async throws {
        let (server, store) = try Self.serve("remote-commitment-usa", following: "alice")
        defer { server.stop() }
        let updates = await store.updates()
        let started = try await store.add(Payment(productId: Self.yearly, account: "alice", billingPlan: .monthly))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            #expect(update.transaction.state == .failed)
            #expect(update.transaction.error == .storeKit(.storeProductNotAvailable))
            return
        }
        Issue.record("the update stream ended before \(started.id) settled")
    }
}

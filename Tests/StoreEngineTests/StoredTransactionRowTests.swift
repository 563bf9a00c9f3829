import Foundation
import GRDB
import LocalState
import SQLiteStore
import StoreCore
import StoreKitModel
import TestSupport
import Testing

@testable import StoreEngine

/// A transaction's row is read by position (`StoredTransaction.Field`), not by column name: every
/// field must come back as it was written, from the plain fetch and from the details' join.
@Suite struct StoredTransactionRowTests {
    private static func sample(id: String) -> StoredTransaction {
        StoredTransaction(
            transaction: Transaction(
                id: id, originalId: "2000000000000001",
                payment: Payment(
                    productId: "com.example.monthly", quantity: 3, applicationUsername: "order-7", account: "bob"),
                state: .failed, error: .network(.timedOut),
                purchaseDate: Date(timeIntervalSince1970: 1_700_000_000.25), finished: true),
            storefront: "FRA", price: Decimal(string: "13.47")!, currency: "EUR",
            expiresDate: Date(timeIntervalSince1970: 1_700_086_400.5),
            revocationDate: Date(timeIntervalSince1970: 1_700_001_000),
            autoRenew: false, pendingOutcome: .fail(.paymentInvalid), reason: .renewal)
    }

    /// The first of the chain `sample` renews.
    private static let original = StoredTransaction(
        transaction: Transaction(
            id: "2000000000000001", originalId: "2000000000000001",
            payment: Payment(productId: "com.example.monthly", quantity: 1, applicationUsername: nil, account: "bob"),
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_690_000_000)),
        storefront: "USA", price: 9, currency: "USD", expiresDate: nil, revocationDate: nil,
        autoRenew: true, pendingOutcome: nil, reason: .purchase)

    @Test func theColumnsAndTheFieldsAgree() {
        let names = StoredTransaction.columns.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(names.count == StoredTransaction.Field.allCases.count)
        #expect(names[StoredTransaction.Field.pendingOutcome.rawValue] == "pending_outcome")
        #expect(names.last == "revocation_percentage")
        #expect(StoredTransaction.columns(of: "t").hasPrefix("t.id, t.original_id, "))
    }

    @Test func everyFieldComesBackAsWritten() throws {
        let database = try StoreDatabase(
            storage: SQLiteStorage.store(in: StateDirectory(url: scratchDirectory("stored-row"))))
        let original = Self.original
        var renewal = Self.sample(id: "2000000000000002")
        renewal.offer = TransactionOffer(
            type: .introductory, id: nil, paymentMode: .payAsYouGo, period: SubscriptionPeriod(value: 1, unit: .month))
        renewal.revocationDate = Date(timeIntervalSince1970: 1_700_000_000)
        renewal.revocationReason = .developerIssue
        renewal.revocationPercentage = RefundPercentage(milliunits: 25_500)
        renewal.renewalOffer = TransactionOffer(
            type: .code, id: "free", paymentMode: .freeTrial, period: SubscriptionPeriod(value: 1, unit: .month))
        renewal.renewalProductId = "com.example.yearly"
        renewal.priceIncrease = .agreed
        renewal.renewalPrice = Decimal(string: "5.49")
        renewal.expirationReason = .billingError
        renewal.upgrade = Upgrade(
            date: Date(timeIntervalSince1970: 1_700_000_100), refund: Decimal(string: "2.49") ?? 0)
        renewal.declined = true
        renewal.appAccountToken = UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138")
        renewal.ownership = .familyShared
        renewal.sharedFrom = "2000000000000001"
        renewal.billingPlan = .monthly
        renewal.commitment = TransactionCommitment(
            billingPeriodNumber: 4, totalBillingPeriods: 12, price: Decimal(string: "59.88") ?? 0,
            expirationDate: Date(timeIntervalSince1970: 1_720_000_000))
        renewal.commitmentAutoRenew = false
        renewal.renewalPlan = .upFront
        renewal.refundReversalDate = Date(timeIntervalSince1970: 1_700_000_200)
        try database.writeNow { db in
            try original.insert(db)
            try renewal.insert(owner: "process", requestKey: "key#generation", db)
        }
        let (fetched, all, requestKey) = try database.writeNow { db in
            (
                try StoredTransaction.fetch(db, id: renewal.id), try StoredTransaction.fetchAll(db),
                try String.fetchOne(
                    db, sql: "SELECT request_key FROM transactions WHERE id = ?", arguments: [renewal.id])
            )
        }
        #expect(fetched == renewal)
        #expect(all == [original, renewal])
        #expect(requestKey == "key#generation")
    }

    @Test func theDetailsReadTheSameRowAndTheOriginalsDate() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let original = Self.original
        let renewal = Self.sample(id: "2000000000000002")
        try await store.database.write { db in
            try original.insert(db)
            try renewal.insert(db)
        }
        let details = try #require(try await store.details(transactionIds: [renewal.id])[renewal.id])
        #expect(details == TransactionDetails(renewal, originalPurchaseDate: original.transaction.purchaseDate))
        #expect(details.originalPurchaseDate == Date(timeIntervalSince1970: 1_690_000_000))
        #expect(details.price == Decimal(string: "13.47")! && details.currency == "EUR" && details.reason == .renewal)
    }
}

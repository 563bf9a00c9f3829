import Foundation
import LocalState
import StoreAPI
import StoreCore
import StoreKitModel
import Testing

/// Receipts travel once per account in an answer's `receipts`, and come back on each purchased or
/// restored update when it is decoded; an answer from before `receipts` still decodes.
@Suite struct WireUpdatesTests {
    static func wire(_ id: String, _ state: TransactionState, account: String = "alice") -> WireTransaction {
        WireTransaction(
            Transaction(
                id: id, originalId: id, payment: Payment(productId: "com.example.gems", quantity: 1, account: account),
                state: state, purchaseDate: Date(timeIntervalSince1970: 1_800_000_000)))
    }

    @Test func eachAccountsReceiptTravelsOnceAndComesBackWhereItBelongs() throws {
        let updates = WireUpdates([
            (cursor: 1, transaction: Self.wire("1", .purchasing), receipt: nil),
            (cursor: 2, transaction: Self.wire("1", .purchased), receipt: "A"),
            (cursor: 3, transaction: Self.wire("2", .restored), receipt: "A"),
            // Not its account's first: kept inline.
            (cursor: 4, transaction: Self.wire("3", .purchased), receipt: "A2"),
            // Not a state a receipt comes with: kept inline.
            (cursor: 5, transaction: Self.wire("4", .failed), receipt: "F"),
            (cursor: 6, transaction: Self.wire("5", .purchased, account: "kenji"), receipt: "K"),
        ])
        #expect(updates.receipts == ["alice": "A", "kenji": "K"])
        #expect(updates.updates.map(\.receipt) == [nil, nil, nil, "A2", "F", nil])
        let answer = UpdatesResponse(updates: updates, cursor: 6)
        let decoded = try JSONDecoder().decode(UpdatesResponse.self, from: JSONEncoder().encode(answer)).wireUpdates
            .transactionUpdates()
        #expect(decoded.map(\.receipt) == [nil, "A", "A", "A2", "F", "K"])
        // No receipt at all: the key is left out, not sent empty.
        let none = try JSONEncoder().encode(
            UpdatesResponse(
                updates: WireUpdates([(cursor: 1, transaction: Self.wire("1", .purchasing), receipt: nil)]), cursor: 1))
        #expect(!String(decoding: none, as: UTF8.self).contains("receipts"))
    }

    @Test func anAnswerFromBeforeReceiptsStillDecodes() throws {
        let transaction = String(decoding: try JSONEncoder().encode(Self.wire("1", .purchased)), as: UTF8.self)
        let old = #"{"updates": [{"cursor": 2, "transaction": \#(transaction), "receipt": "R"}], "cursor": 2}"#
        let decoded = try JSONDecoder().decode(UpdatesResponse.self, from: Data(old.utf8)).wireUpdates
            .transactionUpdates()
        #expect(decoded.map(\.receipt) == ["R"])
    }

    /// A reversed refund reaches a served store's app with its date, so the app gives back what
    /// the refund took rather than taking the update for a late purchase.
    @Test func aRefundsReversalTravelsWithItsDate() throws {
        let reversedAt = Date(timeIntervalSince1970: 1_800_000_600)
        let terms = TransactionTerms(price: 1, currency: "USD", refundReversalDate: reversedAt)
        var transaction = Transaction(
            id: "1", originalId: "1", payment: Payment(productId: "com.example.gems", quantity: 1, account: "alice"),
            state: .purchased, purchaseDate: Date(timeIntervalSince1970: 1_800_000_000))
        transaction.terms = terms
        let details = TransactionDetails(
            transactionId: "1", storefront: "USA", originalPurchaseDate: transaction.purchaseDate,
            willAutoRenew: false, reason: .purchase, terms: terms)
        let sent = try JSONEncoder().encode(WireTransaction(transaction, details: details))
        let received = try JSONDecoder().decode(WireTransaction.self, from: sent).transaction()
        #expect(received.terms?.refundReversalDate == reversedAt)
        #expect(received.terms?.revocation == nil)
    }
}

import Foundation
import Hummingbird
import HummingbirdTesting
import StoreAPI
import StoreCore
import StoreKitModel
import Testing

/// A refund request waiting for the App Store is on the transactions a client lists, so a
/// storefront on a served store shows one another client made; never on an update.
@Suite struct RefundRequestRouteTests {
    @Test func listedTransactionsCarryTheWaitingRequest() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        let id = bought.transaction.id
        let asked = fixture.clock.now().epochMilliseconds
        try await fixture.test { client in
            _ = try await client.object(
                .post, "/admin/transactions/\(id)/request-refund?reason=legal", admin: true)
            for (path, admin) in [("/admin/transactions", true), ("/v1/accounts/alice/transactions", false)] {
                let listed = try await client.object(.get, path, admin: admin)
                let transaction = (listed["transactions"] as? [[String: Any]])?.first {
                    $0["transactionId"] as? String == id
                }
                #expect(transaction?["refundRequestReason"] as? String == "legal", "\(path)")
                #expect((transaction?["refundRequestDate"] as? NSNumber)?.int64Value == asked, "\(path)")
            }
            let updates = try await client.send(.get, "/v1/accounts/alice/unfinished")
            #expect(!String(buffer: updates.body).contains("refundRequest"), "an update never carries it")
            _ = try await client.object(.post, "/admin/transactions/\(id)/decline-refund", admin: true)
            let after = try await client.object(.get, "/admin/transactions", admin: true)
            #expect(!"\(after)".contains("refundRequest"), "decided, it no longer waits")
        }
    }

    /// The remote store reads it back as the in-process store reports it.
    @Test func theWireFormKeepsTheRequest() throws {
        var transaction = Transaction(
            id: "2000000000000001", originalId: "2000000000000001",
            payment: Payment(productId: ServerFixture.gems, account: "alice"), state: .purchased,
            purchaseDate: Date(timeIntervalSince1970: 1_800_000_000), finished: true)
        transaction.refundRequest = WaitingRefund(
            reason: .unintendedPurchase, requestedAt: Date(timeIntervalSince1970: 1_800_000_060))
        let data = try JSONEncoder().encode(WireTransaction(transaction))
        let read = try JSONDecoder().decode(WireTransaction.self, from: data).transaction()
        #expect(read.refundRequest == transaction.refundRequest)

        let unknown = String(decoding: data, as: UTF8.self).replacingOccurrences(
            of: "unintended-purchase", with: "bored")
        #expect(throws: WireFormatError.self) {
            try JSONDecoder().decode(WireTransaction.self, from: Data(unknown.utf8)).transaction()
        }
    }
}

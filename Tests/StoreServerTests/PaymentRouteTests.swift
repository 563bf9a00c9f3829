import Foundation
import GRDB
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreEngine
import StoreServer
import TestSupport
import Testing

@Suite struct PaymentRouteTests {
    @Test func productsRequestHasExactAndFormattedPricesAndInvalidIdentifiers() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let body = try await client.object(
                .post, "/v1/products",
                json:
                    #"{"ids":["\#(ServerFixture.gems)","nope","com.example.storefront.levels.classic"],"storefront":"JPN"}"#
            )
            let products = try #require(body["products"] as? [[String: Any]])
            #expect(products.count == 1)
            #expect(products.first?["price"] as? String == "160")
            #expect(products.first?["displayPrice"] as? String == "¥160")
            #expect(
                body["invalidProductIdentifiers"] as? [String] == ["nope", "com.example.storefront.levels.classic"])
            #expect((body["storefront"] as? [String: Any])?["currency"] as? String == "JPY")
        }
    }

    @Test func aRetryWithTheSameKeyGetsTheStoredResponseAndChargesOnce() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let key = UUID().uuidString
            let first = try await client.pay(ServerFixture.gems, key: key)
            #expect(first.status == .created)
            // Let the purchase complete in between: the retry must still get the first answer, byte for byte.
            let id = try #require((try json(first)["transaction"] as? [String: Any])?["transactionId"] as? String)
            _ = try await client.awaitUpdate(account: "alice", after: 0, transactionId: id)
            let retry = try await client.pay(ServerFixture.gems, key: key)
            #expect(retry.status == .created)
            #expect(retry.body == first.body)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.count == 1)
        }
    }

    @Test func theSameKeyWithAnotherBodyIsAConflict() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let key = UUID().uuidString
            #expect(try await client.pay(ServerFixture.gems, key: key).status == .created)
            let other = try await client.pay(ServerFixture.gems, key: key, quantity: 2)
            #expect(other.status == .conflict)
            let error = try #require(try json(other)["error"] as? [String: Any])
            #expect(error["code"] as? String == "idempotency_conflict")
            #expect(error["status"] as? Int == 409)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.count == 1)
        }
    }

    /// Requests were compared byte for byte, so a client that re-encoded the same payment for its
    /// retry (another key order, spacing, escapes) got 409 and no answer. The decoded request is
    /// compared now; a quantity left out is the default 1.
    @Test func theSamePaymentWrittenDifferentlyReplaysTheFirstAnswer() async throws {
        let fixture = try await ServerFixture()
        let gems = ServerFixture.gems
        let key = ["Idempotency-Key": UUID().uuidString]
        let same = [
            #"{ "applicationUsername" : "order-1", "quantity" : 1, "productId" : "\#(gems)", "account" : "alice" }"#,
            #"{"account":"\u0061lice","productId":"\#(gems)","applicationUsername":"order-1"}"#,
            "{\n\t\"productId\": \"\(gems)\",\n\t\"account\": \"alice\",\n\t\"applicationUsername\": \"order-1\",\n\t\"quantity\": 1\n}",
        ]
        let different = [
            #"{"account":"alice","productId":"\#(gems)","quantity":2,"applicationUsername":"order-1"}"#,
            #"{"account":"alice","productId":"\#(gems)","applicationUsername":"order-2"}"#,
            #"{"account":"alice","productId":"\#(gems)"}"#,
            #"{"account":"kenji","productId":"\#(gems)","applicationUsername":"order-1"}"#,
            #"{"account":"alice","productId":"com.example.storefront.gems.550","applicationUsername":"order-1"}"#,
        ]
        try await fixture.test { client in
            let first = try await client.send(
                .post, "/v1/payments",
                json: #"{"account":"alice","productId":"\#(gems)","quantity":1,"applicationUsername":"order-1"}"#,
                headers: key)
            #expect(first.status == .created)
            for body in same {
                let retry = try await client.send(.post, "/v1/payments", json: body, headers: key)
                #expect(retry.status == .created, "\(body): \(String(buffer: retry.body))")
                #expect(retry.body == first.body, "\(body)")
                #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true", "\(body)")
            }
            for body in different {
                let other = try await client.send(.post, "/v1/payments", json: body, headers: key)
                #expect(other.status == .conflict, "\(body)")
                #expect(
                    (try json(other)["error"] as? [String: Any])?["code"] as? String == "idempotency_conflict",
                    "\(body)")
            }
            let history = try await client.object(.get, "/admin/transactions", admin: true)
            #expect((history["transactions"] as? [Any])?.count == 1)
        }
    }

    @Test func aPaymentWithoutAKeyIsRefused() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/v1/payments", json: #"{"account":"alice","productId":"\#(ServerFixture.gems)"}"#)
            #expect(response.status == .badRequest)
            #expect((try json(response)["error"] as? [String: Any])?["field"] as? String == "Idempotency-Key")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true)
        }
    }

    /// A key reserved whose payment was committed but whose answer was never stored (what an
    /// earlier version, which kept keys in `server.sqlite`, left when it died between its commits,
    /// imported with that file): the retry finds the transaction by the key's generation recorded
    /// on it and charges nothing more. The state is made by paying, then erasing the stored answer.
    @Test(.disabled(if: StoreFixture.onPostgres, "works on the SQLite file under the store"))
    func aPaymentCommittedBeforeACrashIsNotRepeatedByTheRetry() async throws {
        let fixture = try await ServerFixture()
        let key = "crash-key-1"
        let body = #"{"account":"alice","productId":"\#(ServerFixture.gems)","quantity":1}"#
        try await fixture.test { client in
            let first = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": key])
            let committed = try #require(
                (try json(first)["transaction"] as? [String: Any])?["transactionId"] as? String)
            // The server's own writes (its maintenance, the purchase's completion) may hold the file
            // for a moment: wait for them as the server does, rather than fail on SQLITE_BUSY.
            let database = try DatabaseQueue(
                path: fixture.directory.appendingPathComponent("store.sqlite").path,
                configuration: StateLock.configuration())
            try await database.write { db in
                try db.execute(
                    sql: "UPDATE idempotency_keys SET status = NULL, body = NULL, completed_at = NULL WHERE key = ?",
                    arguments: [key])
            }
            try database.close()
            let retry = try await client.send(.post, "/v1/payments", json: body, headers: ["Idempotency-Key": key])
            #expect(retry.status == .created)
            #expect((try json(retry)["transaction"] as? [String: Any])?["transactionId"] as? String == committed)
            #expect((try json(retry)["transaction"] as? [String: Any])?["state"] as? String == "purchasing")
            #expect(
                retry.headers[HTTPField.Name("Idempotent-Replayed")!] == nil,
                "the answer was still stored: not the state under test")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.count == 1)
        }
    }

    /// The key, the payment and its answer are one commit: many concurrent requests with one key
    /// (they share group commits) charge once and all get the first answer.
    @Test func concurrentRequestsWithOneKeyChargeOnceAndGetOneAnswer() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let responses = try await withThrowingTaskGroup(of: TestResponse.self) { group in
                for _ in 0..<16 {
                    group.addTask { try await client.pay(ServerFixture.gems, key: "one-key-many-requests") }
                }
                return try await group.reduce(into: [TestResponse]()) { $0.append($1) }
            }
            #expect(responses.allSatisfy { $0.status == .created })
            #expect(Set(responses.map(\.body)).count == 1, "the answers differ")
            #expect(responses.filter { $0.headers[HTTPField.Name("Idempotent-Replayed")!] == nil }.count == 1)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.count == 1)
        }
    }

    @Test func anExpiredKeyMayBeUsedForANewPayment() async throws {
        let fixture = try await ServerFixture(idempotencyLifetime: 0.3)
        try await fixture.test { client in
            #expect(try await client.pay(ServerFixture.gems, key: "reused").status == .created)
            fixture.clock.advance(by: 0.5)
            #expect(try await client.pay(ServerFixture.gems, key: "reused", quantity: 2).status == .created)
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.count == 2)
        }
    }

    @Test func anUnknownProductFailsAsStoreKitDoesAndAFinishedOneStaysFinished() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.pay("com.example.nope")
            #expect(response.status == .created)
            let id = try #require((try json(response)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let (update, _, _) = try await client.awaitUpdate(account: "alice", after: 0, transactionId: id)
            let transaction = try #require(update["transaction"] as? [String: Any])
            #expect(transaction["state"] as? String == "failed")
            #expect((transaction["error"] as? [String: Any])?["code"] as? Int == 3)
            #expect(transaction["jwsRepresentation"] == nil || transaction["jwsRepresentation"] is NSNull)
            // Another account's finish is refused: the queue of one account never holds another's.
            let other = try await client.object(.post, "/v1/accounts/kid/transactions/\(id)/finish", expect: .notFound)
            #expect(
                ((other["error"] as? [String: Any])?["message"] as? String)?.contains("kid has no transaction") == true)
            #expect(((try await client.object(.get, "/v1/accounts/alice/unfinished"))["updates"] as? [Any])?.count == 1)
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/\(id)/finish")
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/\(id)/finish")
            let unfinished = try await client.object(.get, "/v1/accounts/alice/unfinished")
            #expect((unfinished["updates"] as? [Any])?.isEmpty == true)
        }
    }

    /// The path names the transaction to finish; a body naming another one was ignored, so a
    /// client that mixed them up finished a transaction it did not mean to.
    @Test func aFinishWhoseBodyNamesAnotherTransactionIsRefused() async throws {
        let fixture = try await ServerFixture()
        let first = try await fixture.buy(ServerFixture.gems).transaction.id
        let second = try await fixture.buy(ServerFixture.gems).transaction.id
        try await fixture.test { client in
            let refused = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(first)/finish",
                json: #"{"transactionId":"\#(second)","finished":true}"#,
                expect: .conflict)
            let message = try #require((refused["error"] as? [String: Any])?["message"] as? String)
            #expect(message.contains(first) && message.contains(second), "\(message)")
            let unfinished = try await client.object(.get, "/v1/accounts/alice/unfinished")
            #expect((unfinished["updates"] as? [Any])?.count == 2)
            let finished = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(first)/finish",
                json: #"{"transactionId":"\#(first)","finished":true}"#)
            #expect(finished["transactionId"] as? String == first)
            _ = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(second)/finish", json: #"{"finished":false}"#,
                expect: .unprocessableContent)
            _ = try await client.object(
                .post, "/v1/accounts/alice/transactions/\(second)/finish",
                json: #"{"transactionId":"\#(second)","finish":true}"#,
                expect: .unprocessableContent)
            _ = try await client.object(.post, "/v1/accounts/alice/transactions/\(second)/finish")
            let none = try await client.object(.get, "/v1/accounts/alice/unfinished")
            #expect((none["updates"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func restoreReportsRestoredNothingAndFailed() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let nothing = try await client.object(.post, "/v1/accounts/alice/restore")
            #expect(nothing["outcome"] as? String == "nothing")
            _ = try await fixture.buy(ServerFixture.removeAds)
            let restored = try await client.object(.post, "/v1/accounts/alice/restore")
            #expect(restored["outcome"] as? String == "restored")
            let updates = try #require(restored["updates"] as? [[String: Any]])
            #expect(updates.count == 1)
            #expect((updates.first?["transaction"] as? [String: Any])?["state"] as? String == "restored")
            #expect(updates.first?["receipt"] == nil)  // the account's receipt is in `receipts`, once
            #expect((restored["receipts"] as? [String: Any])?["alice"] is String)
            _ = try await client.object(.put, "/admin/controls", json: #"{"nextOutcome":"network:-1009"}"#, admin: true)
            let failed = try await client.object(.post, "/v1/accounts/alice/restore")
            #expect(failed["outcome"] as? String == "failed")
            #expect((failed["error"] as? [String: Any])?["code"] as? Int == -1009)
            #expect((failed["error"] as? [String: Any])?["domain"] as? String == "NSURLErrorDomain")
        }
    }

    @Test func walletListsEntitlements() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.removeAds)
        _ = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            let wallet = try await client.object(.get, "/v1/accounts/alice/wallet")
            let items = try #require(wallet["entitlements"] as? [[String: Any]])
            #expect(
                Set(items.compactMap { $0["productId"] as? String }) == [
                    ServerFixture.removeAds, ServerFixture.monthly,
                ])
            #expect(items.first { $0["productId"] as? String == ServerFixture.monthly }?["expiresDate"] is NSNumber)
        }
    }
}

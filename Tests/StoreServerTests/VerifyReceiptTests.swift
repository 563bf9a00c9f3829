import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreEngine
import StoreServer
import StoreSigning
import TestSupport
import Testing

@Suite struct VerifyReceiptTests {
    func verify(_ client: any TestClientProtocol, _ body: String, contentType: String? = "application/json")
        async throws -> [String: Any]
    {
        let response = try await client.send(.post, "/verifyReceipt", json: body, contentType: contentType)
        #expect(response.status == .ok)  // verifyReceipt always answers 200; the status is in the body
        return try json(response)
    }

    func receiptData(_ receipt: String) -> String {
        #"{"receipt-data":"\#(receipt)"}"#
    }

    @Test func aValidReceiptHasApplesFullShape() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        let receipt = try #require(bought.receipt)
        try await fixture.test { client in
            let answer = try await verify(client, receiptData(receipt), contentType: "text/plain")
            #expect(answer["status"] as? Int == 0)
            #expect(answer["environment"] as? String == "Sandbox")
            let body = try #require(answer["receipt"] as? [String: Any])
            #expect(body["bundle_id"] as? String == "com.example.storefront.demo")
            #expect(body["receipt_type"] as? String == "ProductionSandbox")
            for key in ["receipt_creation_date", "request_date", "original_purchase_date"] {
                #expect(body[key] is String && body["\(key)_ms"] is String && body["\(key)_pst"] is String, "\(key)")
            }
            let item = try #require((body["in_app"] as? [[String: Any]])?.first)
            #expect(item["quantity"] as? String == "1")
            #expect(item["product_id"] as? String == ServerFixture.gems)
            #expect(item["transaction_id"] as? String == bought.transaction.id)
            #expect(item["original_transaction_id"] as? String == bought.transaction.id)
            let gmt = try #require(item["purchase_date"] as? String)
            let pst = try #require(item["purchase_date_pst"] as? String)
            let ms = try #require(item["purchase_date_ms"] as? String)
            #expect(gmt.wholeMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} Etc\/GMT/) != nil, "\(gmt)")
            #expect(pst.wholeMatch(of: /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} America\/Los_Angeles/) != nil, "\(pst)")
            // The receipt says the second, as Apple's receipts do.
            #expect(Int64(ms) == Int64(bought.transaction.purchaseDate.timeIntervalSince1970.rounded(.down)) * 1000)
            #expect(item["expires_date"] == nil)
            #expect(answer["latest_receipt_info"] == nil)
            // Every value of an in_app item is a string.
            #expect(item.values.allSatisfy { $0 is String })
        }
    }

    /// `expires_date` is for auto-renewable subscriptions only: a non-renewing subscription's
    /// term is the app's, in the receipt's `in_app` and in `latest_receipt_info` alike.
    @Test func aNonRenewingSubscriptionHasNoExpiry() async throws {
        let fixture = try await ServerFixture()
        let pass = try await fixture.buy("com.example.storefront.pass.season")
        _ = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            let receipt = try await fixture.service.store.currentReceipt(account: "alice")
            let answer = try await verify(client, receiptData(receipt))
            let inApp = try #require((answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])
            let latest = try #require(answer["latest_receipt_info"] as? [[String: Any]])
            for items in [inApp, latest] {
                let item = try #require(items.first { $0["transaction_id"] as? String == pass.transaction.id })
                #expect(item["expires_date"] == nil && item["expires_date_ms"] == nil, "\(item)")
                #expect(items.contains { $0["expires_date_ms"] is String }, "the auto-renewable keeps its expiry")
            }
        }
    }

    @Test func subscriptionsAddLatestReceiptInfoAndExcludeOldTransactions() async throws {
        let fixture = try await ServerFixture()
        let first = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            _ = try await client.object(.post, "/admin/transactions/\(first.transaction.id)/renew", admin: true)
            let receipt = try await fixture.service.store.currentReceipt(account: "alice")
            let all = try await verify(client, receiptData(receipt))
            #expect(all["status"] as? Int == 0)
            let latest = try #require(all["latest_receipt_info"] as? [[String: Any]])
            #expect(latest.count == 2)
            #expect(
                latest.allSatisfy {
                    $0["expires_date"] is String && $0["expires_date_ms"] is String && $0["expires_date_pst"] is String
                })
            #expect(latest.allSatisfy { $0["original_transaction_id"] as? String == first.transaction.id })
            #expect(all["latest_receipt"] is String)
            #expect((all["pending_renewal_info"] as? [[String: Any]])?.first?["auto_renew_status"] as? String == "1")
            let newest = try await verify(client, #"{"receipt-data":"\#(receipt)","exclude-old-transactions":true}"#)
            #expect((newest["latest_receipt_info"] as? [Any])?.count == 1)
        }
    }

    /// `pending_renewal_info` reads the subscription's one record, as the Server API's renewal info
    /// does: a downgrade waiting for the renewal is what it renews to, and the copy the downgrade's
    /// payment completed with is no period of its own.
    @Test func pendingRenewalInfoShowsAWaitingDowngrade() async throws {
        let fixture = try await ServerFixture()
        let plus = try await fixture.buy("com.example.storefront.premiumplus.monthly")
        _ = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            let receipt = try await fixture.service.store.currentReceipt(account: "alice")
            let answer = try await verify(client, receiptData(receipt))
            let pending = try #require(answer["pending_renewal_info"] as? [[String: Any]])
            #expect(pending.count == 1)
            #expect(pending.first?["auto_renew_product_id"] as? String == ServerFixture.monthly)
            #expect(pending.first?["product_id"] as? String == "com.example.storefront.premiumplus.monthly")
            #expect(pending.first?["original_transaction_id"] as? String == plus.transaction.id)
            #expect(pending.first?["expiration_intent"] == nil)
            // The copy is listed with the period in force's expiry, as every subscription item is.
            let all = try #require(answer["latest_receipt_info"] as? [[String: Any]])
            #expect(all.count == 2)
            #expect(all.allSatisfy { $0["expires_date_ms"] is String }, "\(all)")
            #expect(Set(all.compactMap { $0["expires_date_ms"] as? String }).count == 1, "\(all)")
            let newest = try await verify(client, #"{"receipt-data":"\#(receipt)","exclude-old-transactions":true}"#)
            let latest = try #require(newest["latest_receipt_info"] as? [[String: Any]])
            #expect(latest.map { $0["transaction_id"] as? String } == [plus.transaction.id])
        }
    }

    /// What Apple adds to each item where the store has it: the subscription group, the app
    /// account token (the app's UUID order id, or one a server set since), the offer's flags and ids.
    @Test func itemsCarryTheGroupTheAccountTokenAndTheOffer() async throws {
        let fixture = try await ServerFixture()
        let order = UUID()
        let trial = try await fixture.buy(ServerFixture.monthly, order: order.uuidString)
        let code = try await fixture.buy(ServerFixture.monthly, account: "kenji", offer: .code("FREEMONTH01"))
        try await fixture.test { client in
            let answer = try await verify(client, receiptData(try #require(trial.receipt)))
            let item = try #require(((answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])?.first)
            let latest = try #require((answer["latest_receipt_info"] as? [[String: Any]])?.first)
            for item in [item, latest] {
                #expect(item["subscription_group_identifier"] as? String == "premium")
                #expect(item["app_account_token"] as? String == order.uuidString.lowercased())
                #expect(item["is_trial_period"] as? String == "true")  // Premium Monthly's free week
                #expect(item["is_in_intro_offer_period"] as? String == "false")
                #expect(item["offer_code_ref_name"] == nil && item["promotional_offer_id"] == nil)
                #expect(item["web_order_line_item_id"] is String)
            }
            let token = UUID()
            #expect(
                try await fixture.service.serverAPI.setAppAccountToken(
                    token, originalTransactionId: trial.transaction.id))
            let set = try await verify(client, receiptData(try #require(trial.receipt)))
            #expect(
                (set["latest_receipt_info"] as? [[String: Any]])?.first?["app_account_token"] as? String
                    == token.uuidString.lowercased())
            let redeemed = try await verify(client, receiptData(try #require(code.receipt)))
            let codeItem = try #require(((redeemed["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]])?.first)
            #expect(codeItem["offer_code_ref_name"] as? String == "com.example.storefront.premium.freemonth")
            #expect(codeItem["app_account_token"] == nil)  // no UUID order id, none set
        }
    }

    /// Apple's rule for `in_app` and `latest_receipt_info`: a consumable is listed until the app
    /// finishes it, every other purchase for good.
    @Test func aFinishedConsumableDropsOutOfTheAnswer() async throws {
        let fixture = try await ServerFixture()
        let gems = try await fixture.buy(ServerFixture.gems)
        let ads = try await fixture.buy(ServerFixture.removeAds)
        let monthly = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            func listed() async throws -> (inApp: Set<String>, latest: Set<String>) {
                let receipt = try await fixture.service.store.currentReceipt(account: "alice")
                let answer = try await verify(client, receiptData(receipt))
                let inApp = (answer["receipt"] as? [String: Any])?["in_app"] as? [[String: Any]] ?? []
                let latest = answer["latest_receipt_info"] as? [[String: Any]] ?? []
                return (
                    Set(inApp.compactMap { $0["transaction_id"] as? String }),
                    Set(latest.compactMap { $0["transaction_id"] as? String })
                )
            }
            let all = Set([gems, ads, monthly].map(\.transaction.id))
            let before = try await listed()
            #expect(before.inApp == all && before.latest == all)
            for bought in [gems, ads, monthly] {
                #expect(
                    try await client.send(.post, "/v1/accounts/alice/transactions/\(bought.transaction.id)/finish")
                        .status == .ok)
            }
            let kept = Set([ads, monthly].map(\.transaction.id))
            let after = try await listed()
            #expect(after.inApp == kept && after.latest == kept)
        }
    }

    /// Servers started apart (each its own state, so its own receipt key) still tell a receipt of
    /// the other environment by what it says: 21007 at production, 21008 at the sandbox. A
    /// receipt of the same environment from another server is not genuine here: 21003.
    @Test func serversStartedApartSendEachOthersReceiptsToTheRightEnvironment() async throws {
        let sandbox = try await ServerFixture(directory: scratchDirectory("apart-sandbox"), environment: .sandbox)
        let production = try await ServerFixture(
            directory: scratchDirectory("apart-production"), environment: .production)
        let otherSandbox = try await ServerFixture(
            directory: scratchDirectory("apart-sandbox-2"), environment: .sandbox)
        let sandboxReceipt = try #require(try await sandbox.buy(ServerFixture.gems).receipt)
        let productionReceipt = try #require(try await production.buy(ServerFixture.gems).receipt)
        let sandboxStatus = try await production.test { client in
            try await verify(client, receiptData(sandboxReceipt))["status"] as? Int
        }
        #expect(sandboxStatus == 21007)
        let productionStatus = try await sandbox.test { client in
            try await verify(client, receiptData(productionReceipt))["status"] as? Int
        }
        #expect(productionStatus == 21008)
        let foreignStatus = try await otherSandbox.test { client in
            try await verify(client, receiptData(sandboxReceipt))["status"] as? Int
        }
        #expect(foreignStatus == 21003)
    }

    @Test func everyStatusTheContractNames() async throws {
        let directory = scratchDirectory("verify")
        let sandbox = try await ServerFixture(directory: directory, sharedSecret: "s3cret")
        let sandboxReceipt = try #require(try await sandbox.buy(ServerFixture.monthly).receipt)
        // The same state opened as production: its receipts say Production.
        let production = try await ServerFixture(directory: directory, environment: .production)
        let productionReceipt = try #require(try await production.buy(ServerFixture.gems, account: "kenji").receipt)
        // The same state under a catalog without alice: her account is gone.
        var catalog = try #require(
            try JSONSerialization.jsonObject(with: ServerFixture.catalogBytes()) as? [String: Any])
        catalog["accounts"] = (catalog["accounts"] as? [[String: Any]] ?? []).filter {
            $0["name"] as? String != "alice"
        }
        let withoutAlice = try await ServerFixture(
            directory: directory, catalogBytes: try JSONSerialization.data(withJSONObject: catalog))

        try await sandbox.test { client in
            let get = try await client.send(.get, "/verifyReceipt")
            #expect(get.status == .ok)
            #expect(try json(get)["status"] as? Int == 21000)
            #expect(try await verify(client, "{not json")["status"] as? Int == 21000)
            #expect(try await verify(client, "[1,2]")["status"] as? Int == 21000)
            #expect(try await verify(client, #"{"password":"s3cret"}"#)["status"] as? Int == 21002)
            #expect(
                try await verify(client, #"{"receipt-data":"%%% not base64 %%%","password":"s3cret"}"#)["status"]
                    as? Int == 21002)
            #expect(try await verify(client, #"{"receipt-data":42}"#)["status"] as? Int == 21002)
            #expect(
                try await verify(client, #"{"receipt-data":"\#(tampered(sandboxReceipt))","password":"s3cret"}"#)[
                    "status"] as? Int == 21003)
            #expect(
                try await verify(client, #"{"receipt-data":"\#(sandboxReceipt)","password":"wrong"}"#)["status"] as? Int
                    == 21004)
            // A subscription receipt without the password, on a server with a shared secret.
            #expect(try await verify(client, #"{"receipt-data":"\#(sandboxReceipt)"}"#)["status"] as? Int == 21004)
            #expect(
                try await verify(client, #"{"receipt-data":"\#(productionReceipt)","password":"s3cret"}"#)["status"]
                    as? Int == 21008)
            let valid = try await verify(client, #"{"receipt-data":"\#(sandboxReceipt)","password":"s3cret"}"#)
            #expect(valid["status"] as? Int == 0)
            let refused = try await verify(client, #"{"receipt-data":"\#(productionReceipt)"}"#)
            #expect(refused["receipt"] == nil)  // a non-zero status carries no receipt
        }
        try await production.test { client in
            let sandboxOnProduction = try await verify(client, receiptData(sandboxReceipt))
            #expect(sandboxOnProduction["status"] as? Int == 21007)
            let productionOnProduction = try await verify(client, receiptData(productionReceipt))
            #expect(productionOnProduction["status"] as? Int == 0)
            #expect(productionOnProduction["environment"] as? String == "Production")
        }
        try await withoutAlice.test { client in
            let deleted = try await verify(client, receiptData(sandboxReceipt))
            #expect(deleted["status"] as? Int == 21010)
        }
    }

    @Test func aForcedStatusAndAnUnreachableVerifier() async throws {
        let fixture = try await ServerFixture()
        let receipt = try #require(try await fixture.buy(ServerFixture.gems).receipt)
        try await fixture.test { client in
            _ = try await client.object(.put, "/admin/controls", json: #"{"verification":"21005"}"#, admin: true)
            let forced = try await verify(client, receiptData(receipt))
            #expect(forced["status"] as? Int == 21005)
            #expect(forced["is-retryable"] as? Bool == true)
            _ = try await client.object(.put, "/admin/controls", json: #"{"verification":"unreachable"}"#, admin: true)
            #expect(
                try await client.send(.post, "/verifyReceipt", json: receiptData(receipt)).status == .serviceUnavailable
            )
        }
    }

    /// The app server's check: the claim that verified a transaction may ask again; any other claim
    /// on the same transaction id is a replay and is refused.
    @Test func aReplayedTransactionIsRefused() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        let receipt = try #require(bought.receipt)
        try await fixture.test { client in
            func check(_ claim: String, product: String = ServerFixture.gems) async throws -> [String: Any] {
                try await client.object(
                    .post, "/v1/verify",
                    json: """
                        {"receipt":"\(receipt)","transactionId":"\(bought.transaction.id)","productId":"\(product)","claim":"\(claim)"}
                        """)
            }
            #expect(try await check("ledger-1")["result"] as? String == "verified")
            #expect(try await check("ledger-1")["result"] as? String == "verified")
            let replay = try await check("ledger-2")
            #expect(replay["result"] as? String == "rejected")
            #expect((replay["reason"] as? String)?.contains("replayed") == true)
            // Told apart from a bad receipt, so the app of another device can take back its own delivery.
            #expect(replay["replayed"] as? Bool == true)
            #expect(try await check("ledger-1")["replayed"] == nil)
            #expect(try await check("ledger-3", product: ServerFixture.removeAds)["result"] as? String == "rejected")
        }
    }
}

/// The receipt with the last byte of its content (inside the value of its last attribute, so the
/// content is still DER) changed and the old signature kept.
func tampered(_ receipt: String) -> String {
    guard var bytes = Data(base64Encoded: receipt).map(Array.init),
        let content = try? PKCS7SignedData(derEncoded: bytes).content,
        let range = bytes.firstRange(of: content)
    else { return "" }
    bytes[range.upperBound - 1] ^= 0x01
    return Data(bytes).base64EncodedString()
}

import Crypto
import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitTest
import StoreSigning
import Testing

import struct StoreKitModel.Payment

extension StoreKitLibrary {
    /// `Product.purchase` and the transaction it returns: signed by the store, verified against its
    /// root, and decoded from the JWS.
    @Suite struct PurchaseTests {
        @Test func aPurchaseIsVerifiedAndCarriesTheSignedFields() async throws {
            _ = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            let token = UUID()
            let result = try await gems.purchase(options: [.quantity(3), .appAccountToken(token)])
            guard case .success(.verified(let transaction)) = result else {
                Issue.record("expected a verified purchase, got \(result)")
                return
            }
            #expect(transaction.productID == Products.gems)
            #expect(transaction.purchasedQuantity == 3)
            #expect(transaction.price == Decimal(string: "2.97"))
            #expect(transaction.currency?.identifier == "USD")
            #expect(transaction.appAccountToken == token)
            #expect(transaction.environment == .xcode)
            #expect(transaction.storefront.countryCode == "USA")
            #expect(transaction.ownershipType == .purchased)
            #expect(transaction.reason == .purchase)
            #expect(transaction.productType == .consumable)
            guard case .success(let verification) = result else { return }
            #expect(verification.payloadData == transaction.jsonRepresentation)
            #expect(verification.signatureData.count == 64)
            #expect(verification.signedDate == transaction.signedDate)
            let header = try JSONSerialization.jsonObject(with: verification.headerData) as? [String: Any]
            #expect(header?["alg"] as? String == "ES256" && (header?["x5c"] as? [String])?.count == 3)
            let json = try JSONSerialization.jsonObject(with: transaction.jsonRepresentation) as? [String: Any]
            #expect(json?["transactionId"] as? String == String(transaction.id))
            let unfinished = await collect(Transaction.unfinished).map { $0.unsafePayloadValue.id }
            #expect(unfinished == [transaction.id])
            await transaction.finish()
            #expect(await collect(Transaction.unfinished).isEmpty)
        }

        /// A purchase an organization or group assigned to the account reads `.assigned`, as
        /// StoreKit declares it (back-deployed to iOS 15).
        @Test func anAssignedPurchaseIsOwnedAssigned() async throws {
            _ = try session()
            #expect(Transaction.OwnershipType.assigned.rawValue == "ASSIGNED")
            let store = try await StoreConnection.shared.store()
            let bought = try await store.backend.add(
                Payment(productId: Products.removeAds, account: "kenji"), forcing: .success)
            try #require(
                try await eventually {
                    try await store.backend.transactions(account: "kenji").first?.state == .purchased
                })
            _ = try await store.backend.perform(.assign(bought.id, account: "alice"))
            let all = await collect(Transaction.all).map(\.unsafePayloadValue)
            #expect(all.map(\.productID) == [Products.removeAds])
            #expect(all.first?.ownershipType == .assigned)
            let entitled = await collect(Transaction.currentEntitlements).map(\.unsafePayloadValue.ownershipType)
            #expect(entitled == [.assigned])
        }

        /// A consumable's offer code, redeemed outside the app as the redeem sheet does: the
        /// transaction's offer is a code, paid once (`.oneTime`, no period), at the offer's price.
        @Test func aConsumablesOfferCodeIsAOneTimeOffer() async throws {
            _ = try session()
            let store = try await StoreConnection.shared.store()
            let updates = Collected(Transaction.updates)
            defer { updates.stop() }
            _ = try await store.backend.add(
                Payment(productId: "com.example.storefront.gems.550", account: "alice", offer: .code("GEMSWELCOME")),
                forcing: nil)
            try #require(try await eventually { !updates.all.isEmpty })
            let transaction = try #require(updates.all.first?.unsafePayloadValue)
            #expect(transaction.productType == .consumable)
            #expect(transaction.price == Decimal(string: "1.99"))
            #expect(transaction.offer?.type == .code && transaction.offer?.id == "gems-welcome")
            #expect(transaction.offer?.paymentMode == .oneTime && transaction.offer?.period == nil)
        }

        @Test func aJWSFromAnotherRootOrTamperedIsUnverified() async throws {
            _ = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(let verification) = try await gems.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            let jws = verification.jwsRepresentation
            let other = ChainedJWSVerifier(
                root: try SigningChain.mint(leafKey: P256.Signing.PrivateKey(), at: Date()).root)
            #expect(other.payload(of: jws, at: Date()) == .failure(.invalidCertificateChain))
            let store = try await StoreConnection.shared.store()
            var parts = jws.split(separator: ".").map(String.init)
            parts[1] = Base64URL.encode(Data(#"{"transactionId":"1"}"#.utf8))
            #expect(store.verifier.payload(of: parts.joined(separator: "."), at: Date()) == .failure(.invalidSignature))
            #expect(store.verifier.payload(of: "not.a.jws", at: Date()) == .failure(.invalidEncoding))
        }

        @Test func cancelledPendingAndFailedPurchasesAnswerAsStoreKit2() async throws {
            let session = try session()
            let removeAds = try #require(try await Product.products(for: [Products.removeAds]).first)
            session.failTransactionsEnabled = true
            session.failureError = .paymentCancelled
            guard case .userCancelled = try await removeAds.purchase() else {
                Issue.record("expected userCancelled")
                return
            }
            session.failureError = .paymentNotAllowed
            await #expect(throws: Product.PurchaseError.purchaseNotAllowed) { _ = try await removeAds.purchase() }
            session.failTransactionsEnabled = false
            session.askToBuyEnabled = true
            guard case .pending = try await removeAds.purchase() else {
                Issue.record("expected pending")
                return
            }
            // StoreKit 2 shows an app no failed transaction: the failed ones were finished.
            #expect(session.allTransactions().filter { $0.state == .failed }.count == 2)
            #expect(await collect(Transaction.unfinished).isEmpty)
            #expect(await collect(Transaction.all).isEmpty)
        }

        @Test func theVerificationControlMakesTransactionsUnverified() async throws {
            _ = try session()
            try await changeControls { $0.verificationFailure = VerificationFailure(token: "21002") }
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(.unverified(_, let error)) = try await gems.purchase() else {
                Issue.record("expected an unverified purchase")
                return
            }
            #expect(error == .invalidSignature)
        }
    }
}

import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `AppTransaction.shared`: the account's purchase of the app, signed by the store and
    /// verified against its root, with the versions the catalog's `app` section gives.
    @Suite struct AppTransactionTests {
        @Test func theAppTransactionIsSignedAndKept() async throws {
            _ = try session()
            let gems = try #require(try await Product.products(for: [Products.gems]).first)
            guard case .success(let bought) = try await gems.purchase() else {
                Issue.record("expected a purchase")
                return
            }
            guard case .verified(let app) = try await AppTransaction.shared else {
                Issue.record("expected a verified app transaction")
                return
            }
            #expect(app.appTransactionID == bought.unsafePayloadValue.appTransactionID)
            #expect(app.bundleID == "com.example.storefront.demo")
            #expect(app.appVersion == "3.2" && app.originalAppVersion == "1.0")
            #expect(app.environment == .xcode && app.originalPlatform == .iOS)
            #expect(app.appID == nil && app.preorderDate == nil)
            let json = try JSONSerialization.jsonObject(with: app.jsonRepresentation) as? [String: Any]
            #expect(json?["appTransactionId"] as? String == app.appTransactionID)
            let again = try await AppTransaction.refresh()
            #expect(again.unsafePayloadValue.originalPurchaseDate == app.originalPurchaseDate)
            #expect(!again.jwsRepresentation.isEmpty && again.signedDate >= app.signedDate)
        }

        @Test func theControlsFailOrUnverifyTheAppTransaction() async throws {
            let session = try session()
            try await changeControls { $0.verificationFailure = VerificationFailure(token: "21002") }
            guard case .unverified(_, let error) = try await AppTransaction.shared else {
                Issue.record("expected an unverified app transaction")
                return
            }
            #expect(error == .invalidSignature)
            try await session.setSimulatedError(.generic(.unknown), forAPI: .appTransaction)
            await #expect(throws: StoreKitError.unknown) { try await AppTransaction.shared }
            try await session.setSimulatedError(nil, forAPI: .appTransaction)
            #expect(try await AppTransaction.shared.unsafePayloadValue.bundleID == "com.example.storefront.demo")
        }
    }
}

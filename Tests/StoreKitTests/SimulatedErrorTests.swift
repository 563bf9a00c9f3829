import Foundation
@_spi(Storefront) import StoreKit
import StoreKitTest
import Testing

extension StoreKitLibrary {
    /// `setSimulatedError(_:forAPI:)`: the store's API-error control, as each StoreKit call meets it.
    @Suite struct SimulatedErrorTests {
        @Test func eachFailingAPIThrowsItsErrorUntilCleared() async throws {
            let session = try session()
            let offline = StoreKitError.networkError(URLError(.notConnectedToInternet))
            try await session.setSimulatedError(.generic(offline), forAPI: .loadProducts)
            await #expect(throws: offline) { _ = try await Product.products(for: [Products.gems]) }
            #expect(await session.simulatedError(forAPI: .loadProducts) == .generic(offline))
            try await session.setSimulatedError(nil, forAPI: .loadProducts)
            #expect(await session.simulatedError(forAPI: .loadProducts) == nil)
            let gems = try #require(try await Product.products(for: [Products.gems]).first)

            try await session.setSimulatedError(.purchase(.productUnavailable), forAPI: .purchase)
            await #expect(throws: Product.PurchaseError.productUnavailable) { _ = try await gems.purchase() }
            try await session.setSimulatedError(nil, forAPI: .purchase)

            try await session.setSimulatedError(.verification(.invalidSignature), forAPI: .verification)
            guard case .success(.unverified(_, let error)) = try await gems.purchase() else {
                Issue.record("expected an unverified purchase")
                return
            }
            #expect(error == .invalidSignature)
            try await session.setSimulatedError(nil, forAPI: .verification)

            try await session.setSimulatedError(.generic(.unknown), forAPI: .appStoreSync)
            await #expect(throws: StoreKitError.unknown) { try await AppStore.sync() }
            let controls = try await StoreConnection.shared.store().backend.controls()
            #expect(controls.apiErrors.keys.map(\.rawValue) == ["app-store-sync"])
        }
    }
}

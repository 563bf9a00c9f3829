import Foundation
import StoreKit
import StoreKitTest
import XCTest

@testable import StoreApp

/// The store's purchase flows against a test session, as an iOS team writes them for Xcode.
@MainActor
final class StoreTests: XCTestCase {
    var session: SKTestSession!

    override func setUp() async throws {
        session = try SKTestSession(configurationFileNamed: "Products")
        session.disableDialogs = true
        session.resetToDefaultState()
        session.clearTransactions()
    }

    func testProductsAreSortedByKindWithLocalPrices() async throws {
        let store = Store()
        try await store.requestProducts()
        XCTAssertEqual(store.cars.map(\.id), ["nonconsumable.utilityvehicle", "nonconsumable.pickuptruck"])
        XCTAssertEqual(store.fuel.count, 3)
        XCTAssertEqual(store.subscriptions.map(\.id), ["plus.standard", "plus.premium", "plus.pro"])
        XCTAssertEqual(store.cars.first?.displayPrice, "$2.99")
        XCTAssertEqual(store.subscriptions.first?.subscription?.subscriptionPeriod.unit, .month)
    }

    func testBuyingACarVerifiesAndOwnsIt() async throws {
        let store = Store()
        try await store.requestProducts()
        let car = try XCTUnwrap(store.cars.first)
        let bought = try await store.purchase(car)
        let transaction = try XCTUnwrap(bought)
        XCTAssertEqual(transaction.productID, car.id)
        XCTAssertEqual(transaction.ownershipType, .purchased)
        XCTAssertTrue(store.isPurchased(car))
        let latest = await car.latestTransaction
        XCTAssertEqual(try latest?.payloadValue.id, transaction.id)
    }

    func testFuelIsDeliveredOncePerPurchaseWithItsQuantity() async throws {
        let store = Store()
        try await store.requestProducts()
        let fuel = try XCTUnwrap(store.fuel.first)
        _ = try await store.purchase(fuel, options: [.quantity(3)])
        _ = try await store.purchase(fuel)
        XCTAssertEqual(store.fuelDelivered[fuel.id], 4)
    }

    func testAskToBuyIsPendingUntilTheParentApproves() async throws {
        let store = Store()
        try await store.requestProducts()
        let car = try XCTUnwrap(store.cars.last)
        session.askToBuyEnabled = true
        let pending = try await store.purchase(car)
        XCTAssertNil(pending)
        XCTAssertFalse(store.isPurchased(car))
        let request = try XCTUnwrap(session.allTransactions().first { $0.state == .deferred })
        try session.approveAskToBuyTransaction(identifier: request.identifier)
        try await eventually { store.isPurchased(car) }
    }

    func testARefundRevokesTheCar() async throws {
        let store = Store()
        try await store.requestProducts()
        let car = try XCTUnwrap(store.cars.first)
        let bought = try await store.purchase(car)
        let transaction = try XCTUnwrap(bought)
        try session.refundTransaction(identifier: Int(transaction.id))
        try await eventually { !store.isPurchased(car) }
    }

    func testAFailedPurchaseThrowsStoreKitsError() async throws {
        let store = Store()
        try await store.requestProducts()
        session.failTransactionsEnabled = true
        session.failureError = .paymentNotAllowed
        do {
            _ = try await store.purchase(try XCTUnwrap(store.cars.first))
            XCTFail("the purchase should fail")
        } catch let error as Product.PurchaseError {
            XCTAssertEqual(error, .purchaseNotAllowed)
        }
    }

    func testASubscriptionRenewsIntoANewTransaction() async throws {
        let store = Store()
        try await store.requestProducts()
        let plan = try XCTUnwrap(store.subscriptions.first)
        let bought = try await store.purchase(plan)
        let first = try XCTUnwrap(bought)
        XCTAssertNotNil(first.expirationDate)
        try session.forceRenewalOfSubscription(productIdentifier: plan.id)
        try await eventually {
            let entitlement = await Transaction.currentEntitlement(for: plan.id)
            return (try? entitlement?.payloadValue.id).map { $0 != first.id } ?? false
        }
        XCTAssertTrue(store.isPurchased(plan))
    }

    /// Waits up to 30 s for `condition`, as a listener's update arrives on its own time.
    private func eventually(_ condition: @MainActor () async -> Bool) async throws {
        let deadline = Date().addingTimeInterval(30)
        while Date() < deadline {
            if await condition() { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        XCTFail("the condition did not hold within 30 s")
    }
}

import Foundation
import StoreKit

public enum StoreError: Error {
    case failedVerification
}

/// The app's store, written the way StoreKit 2 apps write it: products loaded and sorted by
/// kind, a `Transaction.updates` listener started at launch, what the customer owns read from
/// `currentEntitlements`, and the subscription's state from `subscription.status`.
@MainActor
public final class Store {
    public private(set) var cars: [Product] = []
    public private(set) var fuel: [Product] = []
    public private(set) var subscriptions: [Product] = []
    public private(set) var purchasedCars: [Product] = []
    public private(set) var purchasedSubscriptions: [Product] = []
    /// Fuel delivered, by product: consumables are the app's to count.
    public private(set) var fuelDelivered: [String: Int] = [:]
    /// Transactions the app delivered, so a delivery is never made twice.
    private var delivered: Set<UInt64> = []
    private var updates: Task<Void, Never>?

    public static let productIDs = [
        "nonconsumable.utilityvehicle", "nonconsumable.pickuptruck", "consumable.fuel.87", "consumable.fuel.89",
        "consumable.fuel.91", "plus.standard", "plus.premium", "plus.pro",
    ]

    public init() {
        updates = listenForTransactions()
    }

    deinit {
        updates?.cancel()
    }

    /// Transactions made outside a purchase call: approvals, renewals, refunds, other devices.
    private func listenForTransactions() -> Task<Void, Never> {
        Task { [weak self] in
            for await result in Transaction.updates {
                guard let self, let transaction = try? self.checkVerified(result) else { continue }
                self.deliver(transaction)
                await self.updateCustomerProductStatus()
                await transaction.finish()
            }
        }
    }

    public func requestProducts() async throws {
        let products = try await Product.products(for: Self.productIDs)
        cars = products.filter { $0.type == .nonConsumable }.sorted { $0.price < $1.price }
        fuel = products.filter { $0.type == .consumable }.sorted { $0.price < $1.price }
        subscriptions = products.filter { $0.type == .autoRenewable }.sorted { $0.price < $1.price }
    }

    /// Buys `product`; nil when the customer cancelled or the purchase waits for approval.
    public func purchase(_ product: Product, options: Set<Product.PurchaseOption> = []) async throws -> Transaction? {
        switch try await product.purchase(options: options) {
        case .success(let verification):
            let transaction = try checkVerified(verification)
            deliver(transaction)
            await updateCustomerProductStatus()
            await transaction.finish()
            return transaction
        case .userCancelled, .pending:
            return nil
        }
    }

    public func isPurchased(_ product: Product) -> Bool {
        switch product.type {
        case .nonConsumable: purchasedCars.contains(product)
        case .autoRenewable: purchasedSubscriptions.contains(product)
        default: false
        }
    }

    public func updateCustomerProductStatus() async {
        var cars: [Product] = []
        var subscriptions: [Product] = []
        for await result in Transaction.currentEntitlements {
            guard let transaction = try? checkVerified(result) else { continue }
            switch transaction.productType {
            case .nonConsumable:
                if let car = self.cars.first(where: { $0.id == transaction.productID }) { cars.append(car) }
            case .autoRenewable:
                if let plan = self.subscriptions.first(where: { $0.id == transaction.productID }) {
                    subscriptions.append(plan)
                }
            default:
                break
            }
        }
        purchasedCars = cars
        purchasedSubscriptions = subscriptions
    }

    /// Grants a consumable once per transaction; a refunded one is taken back.
    private func deliver(_ transaction: Transaction) {
        guard transaction.productType == .consumable else { return }
        if transaction.revocationDate != nil {
            if delivered.remove(transaction.id) != nil {
                fuelDelivered[transaction.productID, default: 0] -= transaction.purchasedQuantity
            }
            return
        }
        guard delivered.insert(transaction.id).inserted else { return }
        fuelDelivered[transaction.productID, default: 0] += transaction.purchasedQuantity
    }

    nonisolated func checkVerified<T>(_ result: VerificationResult<T>) throws -> T {
        switch result {
        case .unverified: throw StoreError.failedVerification
        case .verified(let value): return value
        }
    }
}

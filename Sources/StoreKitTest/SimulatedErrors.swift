import Foundation
import StoreKit

/// StoreKitTest's `SKTestFailure`: an error a test session makes a StoreKit API fail with.
public protocol SKTestFailure: Sendable, Equatable {}

/// StoreKitTest's `FailableStoreKitAPI`: a StoreKit API a test session can make fail.
public protocol FailableStoreKitAPI<Failure>: Sendable {
    associatedtype Failure: SKTestFailure
}

/// The errors each API can be made to fail with (StoreKitTest's `SKTestFailures`).
public enum SKTestFailures {
    public enum LoadProducts: SKTestFailure { case generic(StoreKitError) }
    public enum Purchase: SKTestFailure {
        case generic(StoreKitError)
        case purchase(Product.PurchaseError)
    }
    public enum Verification: SKTestFailure {
        case verification(VerificationResult<Transaction>.VerificationError)
    }
    public enum AppStoreSync: SKTestFailure { case generic(StoreKitError) }
    public enum SubscriptionStatus: SKTestFailure { case generic(StoreKitError) }
    public enum AppTransaction: SKTestFailure { case generic(StoreKitError) }
    public enum ManageSubscriptions: SKTestFailure { case generic(StoreKitError) }
    public enum RefundRequest: SKTestFailure { case generic(StoreKitError) }
    public enum OfferCodeRedeem: SKTestFailure { case generic(StoreKitError) }
}

public struct StoreKitLoadProductsAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.LoadProducts
    public init() {}
}

public struct StoreKitPurchaseAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.Purchase
    public init() {}
}

public struct StoreKitVerificationAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.Verification
    public init() {}
}

public struct StoreKitAppStoreSyncAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.AppStoreSync
    public init() {}
}

public struct StoreKitSubscriptionStatusAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.SubscriptionStatus
    public init() {}
}

public struct StoreKitAppTransactionAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.AppTransaction
    public init() {}
}

public struct StoreKitManageSubscriptionsAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.ManageSubscriptions
    public init() {}
}

public struct StoreKitRefundRequestAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.RefundRequest
    public init() {}
}

public struct StoreKitOfferCodeRedeemAPI: FailableStoreKitAPI {
    public typealias Failure = SKTestFailures.OfferCodeRedeem
    public init() {}
}

extension FailableStoreKitAPI where Self == StoreKitLoadProductsAPI {
    public static var loadProducts: StoreKitLoadProductsAPI { StoreKitLoadProductsAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitPurchaseAPI {
    public static var purchase: StoreKitPurchaseAPI { StoreKitPurchaseAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitVerificationAPI {
    public static var verification: StoreKitVerificationAPI { StoreKitVerificationAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitAppStoreSyncAPI {
    public static var appStoreSync: StoreKitAppStoreSyncAPI { StoreKitAppStoreSyncAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitSubscriptionStatusAPI {
    public static var subscriptionStatus: StoreKitSubscriptionStatusAPI { StoreKitSubscriptionStatusAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitAppTransactionAPI {
    public static var appTransaction: StoreKitAppTransactionAPI { StoreKitAppTransactionAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitManageSubscriptionsAPI {
    public static var manageSubscriptions: StoreKitManageSubscriptionsAPI { StoreKitManageSubscriptionsAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitRefundRequestAPI {
    public static var refundRequest: StoreKitRefundRequestAPI { StoreKitRefundRequestAPI() }
}

extension FailableStoreKitAPI where Self == StoreKitOfferCodeRedeemAPI {
    public static var offerCodeRedeem: StoreKitOfferCodeRedeemAPI { StoreKitOfferCodeRedeemAPI() }
}

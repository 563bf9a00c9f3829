import Foundation
import StoreCore
@_spi(Storefront) import StoreKit
import StoreKitModel

/// Which of the store's simulated API errors (`manage set api-error`) an API is.
protocol StoreSimulatedAPI {
    static var simulated: SimulatedAPI { get }
}

/// A failure as the store keeps it: an SKError code or a network error.
protocol StoreErrorFailure {
    var storeError: StoreError { get }
    init(storeError: StoreError)
}

extension StoreKitLoadProductsAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .loadProducts } }
extension StoreKitPurchaseAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .purchase } }
extension StoreKitVerificationAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .verification } }
extension StoreKitAppStoreSyncAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .appStoreSync } }
extension StoreKitSubscriptionStatusAPI: StoreSimulatedAPI {
    static var simulated: SimulatedAPI { .subscriptionStatus }
}
extension StoreKitAppTransactionAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .appTransaction } }
extension StoreKitManageSubscriptionsAPI: StoreSimulatedAPI {
    static var simulated: SimulatedAPI { .manageSubscriptions }
}
extension StoreKitRefundRequestAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .refundRequest } }
extension StoreKitOfferCodeRedeemAPI: StoreSimulatedAPI { static var simulated: SimulatedAPI { .offerCodeRedeem } }

/// StoreKit 2's errors as the store's, and back: the inverse of how the StoreKit library maps
/// the store's errors to StoreKit's.
enum StoreErrors {
    static func of(_ error: StoreKitError) -> StoreError {
        switch error {
        case .networkError(let error): .network(URLErrorCode(rawValue: error.code.rawValue) ?? .notConnectedToInternet)
        case .userCancelled: .storeKit(.paymentCancelled)
        case .notAvailableInStorefront: .storeKit(.storeProductNotAvailable)
        case .notEntitled: .storeKit(.clientInvalid)
        case .unsupported: .storeKit(.unsupportedPlatform)
        case .unknown, .systemError: .storeKit(.unknown)
        }
    }

    static func of(_ error: StoreKit.Product.PurchaseError) -> StoreError {
        switch error {
        case .invalidQuantity: .storeKit(.paymentInvalid)
        case .productUnavailable: .storeKit(.storeProductNotAvailable)
        case .purchaseNotAllowed: .storeKit(.paymentNotAllowed)
        case .ineligibleForOffer: .storeKit(.ineligibleForOffer)
        case .invalidOfferIdentifier: .storeKit(.invalidOfferIdentifier)
        case .invalidOfferPrice: .storeKit(.invalidOfferPrice)
        case .invalidOfferSignature: .storeKit(.invalidSignature)
        case .missingOfferParameters: .storeKit(.missingOfferParams)
        }
    }

    /// The StoreKit error an app sees for a store error, as the library maps it.
    static func storeKitError(_ error: StoreError) -> StoreKitError {
        switch error {
        case .network(let code): .networkError(URLError(URLError.Code(rawValue: code.rawValue) ?? .unknown))
        case .storeKit(.paymentCancelled): .userCancelled
        case .storeKit(.storeProductNotAvailable): .notAvailableInStorefront
        case .storeKit(.clientInvalid): .notEntitled
        case .storeKit(.unsupportedPlatform): .unsupported
        case .storeKit: .unknown
        }
    }
}

/// The failures that carry a StoreKit error only.
protocol GenericFailure: StoreErrorFailure {
    static func generic(_ error: StoreKitError) -> Self
    var genericError: StoreKitError { get }
}

extension GenericFailure {
    var storeError: StoreError { StoreErrors.of(genericError) }
    init(storeError: StoreError) { self = .generic(StoreErrors.storeKitError(storeError)) }
}

extension SKTestFailures.LoadProducts: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.AppStoreSync: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.SubscriptionStatus: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.AppTransaction: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.ManageSubscriptions: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.RefundRequest: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}
extension SKTestFailures.OfferCodeRedeem: GenericFailure {
    var genericError: StoreKitError {
        switch self {
        case .generic(let error): error
        }
    }
}

extension SKTestFailures.Purchase: StoreErrorFailure {
    var storeError: StoreError {
        switch self {
        case .generic(let error): StoreErrors.of(error)
        case .purchase(let error): StoreErrors.of(error)
        }
    }

    init(storeError: StoreError) {
        self = .generic(StoreErrors.storeKitError(storeError))
    }
}

/// A verification failure is kept by the store as the receipt status that refuses verification;
/// the app's StoreKit answers every one `.unverified(_, .invalidSignature)`.
extension SKTestFailures.Verification: StoreErrorFailure {
    var storeError: StoreError { .storeKit(.unknown) }
    init(storeError: StoreError) { self = .verification(.invalidSignature) }
}

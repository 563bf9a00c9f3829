import Foundation
import StoreCore
import StoreEngine
import StoreKitModel

/// StoreKit 2's `StoreKitError`.
public enum StoreKitError: Error, Sendable {
    case unknown
    case userCancelled
    case networkError(URLError)
    case systemError(any Error)
    case notAvailableInStorefront
    case notEntitled
    case unsupported
}

/// How a store's refusal reaches an app: StoreKit 2's errors for the SKError codes and network
/// errors the store answers with.
enum StoreKitErrors {
    static func mapped(_ error: any Error) -> any Error {
        switch error {
        case let error as StoreError: mapped(error)
        case let failure as StoreFailure where failure.kind == .unavailable:
            StoreKitError.networkError(
                URLError(.cannotConnectToHost, userInfo: [NSLocalizedDescriptionKey: failure.message]))
        case is StoreKitError, is Product.PurchaseError, is CancellationError: error
        default: StoreKitError.systemError(error)
        }
    }

    static func mapped(_ error: StoreError) -> any Error {
        switch error {
        case .network(let code):
            return StoreKitError.networkError(URLError(URLError.Code(rawValue: code.rawValue) ?? .unknown))
        case .storeKit(let code): return mapped(code)
        }
    }

    static func mapped(_ code: SKErrorCode) -> any Error {
        switch code {
        case .paymentCancelled, .overlayCancelled: StoreKitError.userCancelled
        case .paymentNotAllowed: Product.PurchaseError.purchaseNotAllowed
        case .storeProductNotAvailable: Product.PurchaseError.productUnavailable
        case .invalidOfferIdentifier: Product.PurchaseError.invalidOfferIdentifier
        case .invalidSignature: Product.PurchaseError.invalidOfferSignature
        case .missingOfferParams: Product.PurchaseError.missingOfferParameters
        case .invalidOfferPrice: Product.PurchaseError.invalidOfferPrice
        case .ineligibleForOffer: Product.PurchaseError.ineligibleForOffer
        case .paymentInvalid: Product.PurchaseError.invalidQuantity
        case .unsupportedPlatform: StoreKitError.unsupported
        case .clientInvalid, .cloudServicePermissionDenied, .cloudServiceRevoked: StoreKitError.notEntitled
        case .cloudServiceNetworkConnectionFailed: StoreKitError.networkError(URLError(.networkConnectionLost))
        default: StoreKitError.unknown
        }
    }
}

/// What every StoreKit call shares: the store it reaches, and its errors as StoreKit's.
enum StoreKitCall {
    static func store() async throws -> OpenedStore {
        try await run { try await StoreConnection.shared.store() }
    }

    /// `body`, with a store's refusal turned into StoreKit 2's error.
    static func run<T: Sendable>(_ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch {
            throw StoreKitErrors.mapped(error)
        }
    }

    /// The account's offer history, as the store keeps it.
    static func offerHistory(_ store: OpenedStore) async throws -> OfferHistory {
        try await run {
            if let local = store.backend as? SimulatedStore {
                return try await local.offerHistory(account: store.account.name)
            }
            return OfferHistory(
                entitlements: try await store.backend.entitlements(account: store.account.name),
                history: try await store.backend.transactions(account: store.account.name), catalog: store.catalog,
                at: store.now)
        }
    }
}

extension StoreKitError: Equatable {
    /// System errors are equal when they describe themselves the same.
    public static func == (lhs: StoreKitError, rhs: StoreKitError) -> Bool {
        switch (lhs, rhs) {
        case (.unknown, .unknown), (.userCancelled, .userCancelled),
            (.notAvailableInStorefront, .notAvailableInStorefront),
            (.notEntitled, .notEntitled), (.unsupported, .unsupported):
            true
        case (.networkError(let left), .networkError(let right)): left.code == right.code
        case (.systemError(let left), .systemError(let right)): String(describing: left) == String(describing: right)
        default: false
        }
    }
}

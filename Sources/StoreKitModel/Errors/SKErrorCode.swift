/// StoreKit's `SKError.Code`, numbered in the declaration order of Apple's `SKError.h`
/// (Apple's documentation page lists them in another order; never number from it).
public enum SKErrorCode: Int, NamedCase, Sendable, Codable, Hashable {
    case unknown = 0
    case clientInvalid = 1
    case paymentCancelled = 2
    case paymentInvalid = 3
    case paymentNotAllowed = 4
    case storeProductNotAvailable = 5
    case cloudServicePermissionDenied = 6
    case cloudServiceNetworkConnectionFailed = 7
    case cloudServiceRevoked = 8
    case privacyAcknowledgementRequired = 9
    case unauthorizedRequestData = 10
    case invalidOfferIdentifier = 11
    case invalidSignature = 12
    case missingOfferParams = 13
    case invalidOfferPrice = 14
    case overlayCancelled = 15
    case overlayInvalidConfiguration = 16
    case overlayTimeout = 17
    case ineligibleForOffer = 18
    case unsupportedPlatform = 19
    case overlayPresentedInBackgroundScene = 20
    case paymentMethodBindingConfigurationRequired = 21

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .unknown: "unknown"
        case .clientInvalid: "clientInvalid"
        case .paymentCancelled: "paymentCancelled"
        case .paymentInvalid: "paymentInvalid"
        case .paymentNotAllowed: "paymentNotAllowed"
        case .storeProductNotAvailable: "storeProductNotAvailable"
        case .cloudServicePermissionDenied: "cloudServicePermissionDenied"
        case .cloudServiceNetworkConnectionFailed: "cloudServiceNetworkConnectionFailed"
        case .cloudServiceRevoked: "cloudServiceRevoked"
        case .privacyAcknowledgementRequired: "privacyAcknowledgementRequired"
        case .unauthorizedRequestData: "unauthorizedRequestData"
        case .invalidOfferIdentifier: "invalidOfferIdentifier"
        case .invalidSignature: "invalidSignature"
        case .missingOfferParams: "missingOfferParams"
        case .invalidOfferPrice: "invalidOfferPrice"
        case .overlayCancelled: "overlayCancelled"
        case .overlayInvalidConfiguration: "overlayInvalidConfiguration"
        case .overlayTimeout: "overlayTimeout"
        case .ineligibleForOffer: "ineligibleForOffer"
        case .unsupportedPlatform: "unsupportedPlatform"
        case .overlayPresentedInBackgroundScene: "overlayPresentedInBackgroundScene"
        case .paymentMethodBindingConfigurationRequired: "paymentMethodBindingConfigurationRequired"
        }
    }

    /// Looks a code up by number (`4`) or by name (`paymentNotAllowed`).
    public init?(token: String) {
        if let number = Int(token), let code = SKErrorCode(rawValue: number) {
            self = code
        } else if let code = SKErrorCode(name: token) {
            self = code
        } else {
            return nil
        }
    }
}

/// Network failures reach StoreKit apps in the URL error domain, not as `SKError`.
public enum URLErrorCode: Int, NamedCase, Sendable, Codable, Hashable {
    case timedOut = -1001
    case cannotFindHost = -1003
    case cannotConnectToHost = -1004
    case networkConnectionLost = -1005
    case notConnectedToInternet = -1009
    case userCancelledAuthentication = -1012
    case secureConnectionFailed = -1200

    /// The name JSON, the wire and the screen use (see `NamedCase`).
    public var name: String {
        switch self {
        case .timedOut: "timedOut"
        case .cannotFindHost: "cannotFindHost"
        case .cannotConnectToHost: "cannotConnectToHost"
        case .networkConnectionLost: "networkConnectionLost"
        case .notConnectedToInternet: "notConnectedToInternet"
        case .userCancelledAuthentication: "userCancelledAuthentication"
        case .secureConnectionFailed: "secureConnectionFailed"
        }
    }
}

/// The languages Storefront speaks.
public enum Language: String, CaseIterable, Sendable, Codable, Hashable {
    case english = "en"
    case simplifiedChinese = "zh-Hans"

    /// `--lang` wins, then `LC_ALL`, `LC_MESSAGES`, `LANG` (`zh_*` → zh-Hans), else English.
    public static func resolve(flag: String?, environment: [String: String]) -> Language? {
        if let flag { return Language(tag: flag) }
        for key in ["LC_ALL", "LC_MESSAGES", "LANG"] {
            guard let value = environment[key], !value.isEmpty else { continue }
            return value.lowercased().hasPrefix("zh") ? .simplifiedChinese : .english
        }
        return .english
    }

    /// Accepts `en`, `en_US`, `zh-Hans`, `zh_CN`, `zh` …; nil for anything else.
    public init?(tag: String) {
        let lower = tag.lowercased()
        if lower == "en" || lower.hasPrefix("en_") || lower.hasPrefix("en-") {
            self = .english
        } else if lower == "zh" || lower.hasPrefix("zh_") || lower.hasPrefix("zh-") {
            self = .simplifiedChinese
        } else {
            return nil
        }
    }
}

/// What the user reads (`message`) and what a developer should check (`detail`).
public struct ErrorText: Sendable, Hashable {
    public let message: String
    public let detail: String

    public init(message: String, detail: String) {
        self.message = message
        self.detail = detail
    }
}

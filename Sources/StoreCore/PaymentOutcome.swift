import StoreKitModel

/// What the simulated store does with the next payment, as Xcode's test session can force it.
public enum PaymentOutcome: Sendable, Hashable {
    case success
    /// The user cancels the payment sheet: `failed` with `paymentCancelled`.
    case cancel
    case fail(SKErrorCode)
    case network(URLErrorCode)
    /// Ask to Buy: `deferred` until a parent approves or declines.
    case deferred
    /// An interrupted purchase: `failed` first, `purchased` once the issue is resolved.
    case interrupted

    /// `success`, `cancel`, `fail:4`, `fail:paymentNotAllowed`, `network`, `network:-1009`, `deferred`, `interrupted`.
    public init?(token: String) {
        let parts = token.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("success", 1): self = .success
        case ("cancel", 1): self = .cancel
        case ("deferred", 1): self = .deferred
        case ("interrupted", 1): self = .interrupted
        case ("network", 1): self = .network(.notConnectedToInternet)
        case ("network", 2):
            // A number or a name; the name fallback used to sit behind a guard that required a number.
            guard
                let code = Int(parts[1]).flatMap(URLErrorCode.init(rawValue:))
                    ?? URLErrorCode(name: parts[1])
            else { return nil }
            self = .network(code)
        case ("fail", 2):
            guard let code = SKErrorCode(token: parts[1]) else { return nil }
            self = .fail(code)
        default:
            return nil
        }
    }

    /// The error the payment fails with whatever else is asked of it; nil for the outcomes that
    /// do not simply fail (an interrupted purchase fails first but is resolved later).
    public var failure: StoreError? {
        switch self {
        case .cancel: .storeKit(.paymentCancelled)
        case .fail(let code): .storeKit(code)
        case .network(let code): .network(code)
        case .success, .deferred, .interrupted: nil
        }
    }

    public var isFailure: Bool { failure != nil }

    /// A payment ending with `failure`.
    public init(failure: StoreError) {
        switch failure {
        case .storeKit(.paymentCancelled): self = .cancel
        case .storeKit(let code): self = .fail(code)
        case .network(let code): self = .network(code)
        }
    }

    /// Every form `init(token:)` reads, for messages.
    public static let tokenForms = ["success", "cancel", "fail:CODE", "network[:CODE]", "deferred", "interrupted"]

    /// "success, cancel, …, deferred or interrupted".
    public static var accepted: String { alternatives(tokenForms) }

    /// "a, b or c".
    static func alternatives(_ words: [String]) -> String {
        words.count < 2 ? words.joined() : words.dropLast().joined(separator: ", ") + " or " + (words.last ?? "")
    }

    public var token: String {
        switch self {
        case .success: "success"
        case .cancel: "cancel"
        case .fail(let code): "fail:\(code.rawValue)"
        case .network(let code): "network:\(code.rawValue)"
        case .deferred: "deferred"
        case .interrupted: "interrupted"
        }
    }
}

/// How receipt verification should misbehave, for testing an app's retry and error paths.
public enum VerificationFailure: Sendable, Hashable {
    case status(VerifyStatus)
    /// The verification server cannot be reached: the app must keep the payment and retry.
    case unreachable

    public init?(token: String) {
        if token == "unreachable" {
            self = .unreachable
            return
        }
        guard let number = Int(token), let status = VerifyStatus(rawValue: number), status != .valid else { return nil }
        self = .status(status)
    }

    public var token: String {
        switch self {
        case .status(let status): String(status.rawValue)
        case .unreachable: "unreachable"
        }
    }
}

import StoreCore
import StoreKitModel

/// A transaction named in a scenario: the last one bought while preparing it, or an id.
public enum TransactionRef: Sendable, Hashable {
    case last
    case id(String)

    init(_ word: String) {
        self = word == "last" ? .last : .id(word)
    }
}

/// A transaction-manager action as `storefront manage` spells it (`refund last`,
/// `price-increase request last`, `clear`).
public struct ManageCommand: Sendable, Hashable {
    public enum Verb: Sendable, Hashable {
        case approve, decline, resolve, refund, requestRefund, declineRefund, expire, renew, delete, stopSharing
        case autoRenew(Bool)
        case priceIncrease(PriceIncreaseStep)
        case clear, reset
    }

    public var verb: Verb
    /// nil for `clear` and `reset`.
    public var transaction: TransactionRef?

    public init(verb: Verb, transaction: TransactionRef?) {
        self.verb = verb
        self.transaction = transaction
    }

    /// The store's action on transaction `id` (ignored by `clear` and `reset`).
    public func action(on id: String) -> ManageAction {
        switch verb {
        case .approve: .approveAskToBuy(id)
        case .decline: .declineAskToBuy(id)
        case .resolve: .resolveIssue(id)
        case .refund: .refund(id)
        case .requestRefund: .requestRefund(id)
        case .declineRefund: .declineRefund(id)
        case .expire: .expireSubscription(id)
        case .renew: .forceRenewal(id)
        case .delete: .delete(id)
        case .stopSharing: .stopSharing(id)
        case .autoRenew(let on): .setAutoRenew(id, on)
        case .priceIncrease(let step): .priceIncrease(id, step)
        case .clear: .clearAll
        case .reset: .resetToDefaults
        }
    }

    /// The actions that take one transaction, by the word `storefront manage` uses.
    static let single: [(String, Verb)] = [
        ("approve", .approve), ("decline", .decline), ("resolve", .resolve), ("refund", .refund),
        ("request-refund", .requestRefund), ("decline-refund", .declineRefund), ("expire", .expire),
        ("renew", .renew), ("delete", .delete), ("stop-sharing", .stopSharing),
    ]

    static let verbs = single.map(\.0) + ["auto-renew on|off", "price-increase request|consent|decline", "clear", "reset"]

    /// Reads `words`; a message saying what was expected when they are not an action.
    public static func parse(_ words: [String]) -> Result<ManageCommand, WordsProblem> {
        guard let first = words.first else { return .failure(WordsProblem("expected an action (\(verbs.joined(separator: ", ")))")) }
        let rest = Array(words.dropFirst())
        if first == "clear" || first == "reset" {
            guard rest.isEmpty else { return .failure(WordsProblem("\(first) takes no transaction")) }
            return .success(ManageCommand(verb: first == "clear" ? .clear : .reset, transaction: nil))
        }
        if let verb = single.first(where: { $0.0 == first })?.1 {
            guard rest.count == 1 else { return .failure(WordsProblem("\(first) takes one transaction: last or an id")) }
            return .success(ManageCommand(verb: verb, transaction: TransactionRef(rest[0])))
        }
        if first == "auto-renew" {
            guard rest.count == 2, let on = ["on": true, "off": false][rest[0]] else {
                return .failure(WordsProblem("auto-renew takes on or off, then a transaction: auto-renew off last"))
            }
            return .success(ManageCommand(verb: .autoRenew(on), transaction: TransactionRef(rest[1])))
        }
        if first == "price-increase" {
            guard rest.count == 2, let step = PriceIncreaseStep(rawValue: rest[0]) else {
                return .failure(WordsProblem("price-increase takes request, consent or decline, then a transaction: price-increase request last"))
            }
            return .success(ManageCommand(verb: .priceIncrease(step), transaction: TransactionRef(rest[1])))
        }
        if first == "set" { return .failure(WordsProblem("a test control is a step of its own: {\"set\": \"\(rest.joined(separator: " "))\"}")) }
        return .failure(WordsProblem("unknown action \(brief(.string(first))) (expected one of: \(verbs.joined(separator: ", ")))"))
    }
}

/// A test control as `storefront manage set` spells it: a setting and its value (two values for
/// `product-outcome` and `api-error`).
public struct ControlCommand: Sendable, Hashable {
    public var name: String
    public var values: [String]

    public init(name: String, values: [String]) {
        self.name = name
        self.values = values
    }

    /// Sets it in `controls`, checked against `catalog` as `manage set` checks it.
    public func apply(to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        switch name {
        case "product-outcome": try controls.setProductOutcome(values[0], values[1], catalog: catalog)
        case "api-error": try controls.setAPIError(values[0], values[1])
        default:
            guard let setting = ControlSetting(rawValue: name) else {
                throw ControlProblem(setting: name, field: name, value: nil, message: "unknown setting")
            }
            try setting.apply(values[0], to: &controls, catalog: catalog)
        }
    }

    static let names = ControlSetting.allCases.map(\.rawValue) + ["product-outcome", "api-error"]

    /// Reads a setting and its values; the values are checked later, against the catalog.
    public static func parse(_ words: [String]) -> Result<ControlCommand, WordsProblem> {
        guard let name = words.first else { return .failure(WordsProblem("expected a setting and its value, such as \"verification unreachable\"")) }
        guard names.contains(name) else {
            return .failure(WordsProblem("unknown setting \(brief(.string(name))) (expected one of: \(names.joined(separator: ", ")))"))
        }
        let wanted = name == "product-outcome" || name == "api-error" ? 2 : 1
        // An empty value (account, storefront) is written as nothing after the name.
        let values = words.count == 1 && wanted == 1 ? [""] : Array(words.dropFirst())
        guard values.count == wanted else {
            return .failure(WordsProblem("\(name) takes \(wanted == 1 ? "one value" : "two values"), found \(values.count)"))
        }
        return .success(ControlCommand(name: name, values: values))
    }
}

/// What is wrong with a command's words.
public struct WordsProblem: Error, Sendable, Hashable {
    public let message: String

    init(_ message: String) {
        self.message = message
    }
}

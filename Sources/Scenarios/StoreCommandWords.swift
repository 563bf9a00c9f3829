import StoreCore
import StoreKitModel

/// A transaction named in a scenario or a tape: the last one bought while preparing it, or an id.
public enum TransactionRef: Sendable, Hashable {
    case last
    case id(String)

    public init(_ word: String) {
        self = word == "last" ? .last : .id(word)
    }
}

/// A transaction-manager action as `storefront manage` spells it (`refund last`,
/// `price-increase request last`, `clear`), with its transaction still to be found.
public struct ManageStep: Sendable, Hashable {
    public let verb: ManageVerb
    /// The word between the verb and the transaction (`off` in `auto-renew off last`), if it takes one.
    public let choice: String?
    /// `--reason app-issue` of `refund last --reason app-issue`; nil when not given.
    public let reason: RefundReason?
    /// `--reason legal` of `request-refund last --reason legal`; nil when not given.
    public let requestReason: RefundRequestReason?
    /// `--percentage 25` of `refund last --percentage 25`: a prorated refund; nil when not given.
    public let percentage: RefundPercentage?
    /// nil for `clear` and `reset`.
    public let transaction: TransactionRef?
    /// `--account kenji` of `clear --account kenji`: that account's history only; the account
    /// `family add|remove` moves; the account a `message` or a `purchase-intent` is for; nil
    /// otherwise.
    public let account: String?
    /// `--family smiths` of `family add lena --family smiths`; nil otherwise.
    public let family: String?
    /// What `create PRODUCT --account A --date D …` makes; nil for every other verb.
    public let creation: TransactionCreation?
    /// The product of `purchase-intent PRODUCT`; nil otherwise.
    public let product: String?
    /// `--offer ID` of `purchase-intent PRODUCT --offer ID`: the win-back offer redeemed; nil otherwise.
    public let offer: String?
    private let make: @Sendable (String) -> ManageAction

    /// nil when `choice`, a reason, a percentage, an account, a product or an offer does not fit
    /// `verb` (see `ManageVerb.action(choice:reason:requestReason:percentage:account:product:offer:)`).
    public init?(
        _ verb: ManageVerb, choice: String? = nil, reason: RefundReason? = nil,
        requestReason: RefundRequestReason? = nil, percentage: RefundPercentage? = nil, account: String? = nil,
        family: String? = nil, product: String? = nil, offer: String? = nil, transaction: TransactionRef?
    ) {
        guard
            let make = verb.action(
                choice: choice, reason: reason, requestReason: requestReason, percentage: percentage,
                account: account, family: family, product: product, offer: offer)
        else { return nil }
        self.product = product
        self.offer = offer
        self.verb = verb
        self.choice = choice
        self.reason = reason
        self.requestReason = requestReason
        self.percentage = percentage
        self.account = account
        self.family = family
        self.transaction = transaction
        self.creation = nil
        self.make = make
    }

    /// `create`: a transaction made outside the device.
    public init(creating creation: TransactionCreation) {
        verb = .create
        (choice, reason, requestReason, percentage, family, transaction) = (nil, nil, nil, nil, nil, nil)
        (product, offer) = (nil, nil)
        account = creation.account
        self.creation = creation
        make = { _ in .createTransaction(creation) }
    }

    /// The store's action on transaction `id` (ignored by `clear` and `reset`).
    public func action(on id: String) -> ManageAction {
        make(id)
    }

    public static func == (left: ManageStep, right: ManageStep) -> Bool {
        (left.verb, left.choice, left.reason, left.requestReason, left.account, left.transaction)
            == (right.verb, right.choice, right.reason, right.requestReason, right.account, right.transaction)
            && (left.percentage, left.family) == (right.percentage, right.family) && left.creation == right.creation
            && (left.product, left.offer) == (right.product, right.offer)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(verb)
        hasher.combine(choice)
        hasher.combine(reason)
        hasher.combine(requestReason)
        hasher.combine(percentage)
        hasher.combine(account)
        hasher.combine(family)
        hasher.combine(product)
        hasher.combine(offer)
        hasher.combine(transaction)
        hasher.combine(creation)
    }

    static let usages = ManageVerb.actions.map(\.usage).joined(separator: ", ")

    /// How `clear` names the one account whose history it clears.
    static let accountOption = ManageVerb.accountOption

    /// Reads `words`; a message saying what was expected when they are not an action.
    public static func parse(_ words: [String]) -> Result<ManageStep, WordsProblem> {
        guard let first = words.first else { return .failure(WordsProblem("expected an action (\(usages))")) }
        let rest = Array(words.dropFirst())
        guard let verb = ManageVerb(rawValue: first) else {
            return .failure(WordsProblem("unknown action \(brief(.string(first))) (expected one of: \(usages))"))
        }
        if verb == .set {
            return .failure(
                WordsProblem("a test control is a step of its own: {\"set\": \"\(rest.joined(separator: " "))\"}"))
        }
        if verb == .create { return parseCreate(rest) }
        if verb == .clear, rest.first == accountOption {
            guard rest.count == 2, let step = ManageStep(.clear, account: rest[1], transaction: nil) else {
                return .failure(
                    WordsProblem(
                        "clear takes nothing, or \(accountOption) and one account: clear \(accountOption) alice"))
            }
            return .success(step)
        }
        if verb == .family { return parseFamily(rest) }
        if verb == .assign { return parseAssign(rest) }
        if verb == .message || verb == .purchaseIntent { return parseAccountAction(verb, rest) }
        if !verb.takesTransaction {
            guard rest.isEmpty, let step = ManageStep(verb, transaction: nil) else {
                return .failure(WordsProblem("\(first) takes no transaction"))
            }
            return .success(step)
        }
        if verb.takesReason { return parseRefund(verb, rest) }
        if verb.choices.isEmpty {
            guard rest.count == 1, let step = ManageStep(verb, transaction: TransactionRef(rest[0])) else {
                return .failure(WordsProblem("\(first) takes one transaction: last or an id"))
            }
            return .success(step)
        }
        guard rest.count == 2, let step = ManageStep(verb, choice: rest[0], transaction: TransactionRef(rest[1])) else {
            // Turning auto-renew off is what a test does with it; a price increase starts with a request.
            let example = verb == .autoRenew ? Switch.off.rawValue : verb.choices.first ?? ""
            return .failure(
                WordsProblem("\(first) takes \(verb.choicesInWords), then a transaction: \(first) \(example) last"))
        }
        return .success(step)
    }
}

extension ManageStep {
    /// `assign last --to lena` (the option before the transaction too), as `storefront manage
    /// assign` takes it.
    static func parseAssign(_ words: [String]) -> Result<ManageStep, WordsProblem> {
        var rest = words
        var account: String?
        if let at = rest.firstIndex(of: ManageVerb.assignOption), at + 1 < rest.count {
            account = rest[at + 1]
            rest.removeSubrange(at...(at + 1))
        }
        guard rest.count == 1, let step = ManageStep(.assign, account: account, transaction: TransactionRef(rest[0]))
        else {
            let option = ManageVerb.assignOption
            return .failure(
                WordsProblem(
                    "assign takes one transaction, last or an id, and \(option) ACCOUNT: assign last \(option) lena"))
        }
        return .success(step)
    }

    /// `family add lena --family smiths` or `family remove lena`, as `storefront manage` takes them.
    static func parseFamily(_ words: [String]) -> Result<ManageStep, WordsProblem> {
        let step: ManageStep? =
            switch words.count {
            case 2: ManageStep(.family, choice: words[0], account: words[1], transaction: nil)
            case 4 where words[2] == ManageVerb.familyOption:
                ManageStep(.family, choice: words[0], account: words[1], family: words[3], transaction: nil)
            default: nil
            }
        guard let step else {
            let option = ManageVerb.familyOption
            return .failure(
                WordsProblem(
                    "family takes add, an account, \(option) and a family, or remove and an account: family add lena \(option) smiths, family remove lena"
                ))
        }
        return .success(step)
    }

    /// `message generic --account alice`, `purchase-intent PRODUCT [--offer ID] --account alice`
    /// (the options anywhere), as `storefront manage` takes them: the App Store's side of one
    /// account, which each must name.
    static func parseAccountAction(_ verb: ManageVerb, _ words: [String]) -> Result<ManageStep, WordsProblem> {
        let example =
            verb == .message
            ? "message \(StoreMessageReason.sendable.first?.rawValue ?? "generic") \(accountOption) alice"
            : "purchase-intent com.example.storefront.removeads \(accountOption) alice"
        let shape =
            verb == .message
            ? "message takes \(StoreMessageReason.sendableInWords) and \(accountOption) ACCOUNT: \(example)"
            : "purchase-intent takes a product, \(ManageVerb.offerOption) ID if a win-back offer was redeemed, and \(accountOption) ACCOUNT: \(example)"
        var options: [String: String] = [:]
        var positional: [String] = []
        var index = 0
        while index < words.count {
            let word = words[index]
            let allowed = verb == .purchaseIntent ? [accountOption, ManageVerb.offerOption] : [accountOption]
            if word.hasPrefix("--") {
                guard allowed.contains(word), index + 1 < words.count, options[word] == nil else {
                    return .failure(WordsProblem(shape))
                }
                options[word] = words[index + 1]
                index += 2
                continue
            }
            positional.append(word)
            index += 1
        }
        guard positional.count == 1, let account = options[accountOption],
            let step = verb == .message
                ? ManageStep(verb, choice: positional[0], account: account, transaction: nil)
                : ManageStep(
                    verb, account: account, product: positional[0], offer: options[ManageVerb.offerOption],
                    transaction: nil)
        else { return .failure(WordsProblem(shape)) }
        return .success(step)
    }

    /// `refund last`, `refund last --reason app-issue --percentage 25`, `request-refund last
    /// --reason legal` (the options before the transaction too), as `storefront manage` takes them.
    static func parseRefund(_ verb: ManageVerb, _ words: [String]) -> Result<ManageStep, WordsProblem> {
        var rest = words
        var reasonWord: String?
        var percentage: RefundPercentage?
        if verb == .refund, let at = rest.firstIndex(of: RefundPercentage.option) {
            guard at + 1 < rest.count, let share = RefundPercentage(text: rest[at + 1]) else {
                let found = at + 1 < rest.count ? " \(brief(.string(rest[at + 1])))" : " nothing"
                return .failure(
                    WordsProblem("\(RefundPercentage.option) takes \(RefundPercentage.inWords), found\(found)"))
            }
            percentage = share
            rest.removeSubrange(at...(at + 1))
        }
        let reasons = verb.reasonsInWords
        if let at = rest.firstIndex(of: RefundReason.option) {
            guard at + 1 < rest.count, verb.reasons.contains(rest[at + 1]) else {
                let found = at + 1 < rest.count ? " \(brief(.string(rest[at + 1])))" : " nothing"
                return .failure(WordsProblem("\(RefundReason.option) takes \(reasons), found\(found)"))
            }
            reasonWord = rest[at + 1]
            rest.removeSubrange(at...(at + 1))
        }
        let step =
            rest.count == 1
            ? ManageStep(
                verb, reason: verb == .refund ? reasonWord.flatMap(RefundReason.init(rawValue:)) : nil,
                requestReason: verb == .requestRefund ? reasonWord.flatMap(RefundRequestReason.init(rawValue:)) : nil,
                percentage: percentage, transaction: TransactionRef(rest[0])) : nil
        guard let step else {
            let example = verb == .refund ? RefundReason.appIssue.rawValue : verb.reasons.first ?? ""
            return .failure(
                WordsProblem(
                    "\(verb.rawValue) takes one transaction, last or an id, and optionally \(RefundReason.option) \(reasons): \(verb.rawValue) last \(RefundReason.option) \(example)"
                ))
        }
        return .success(step)
    }
}

/// A test control as `storefront manage set` spells it: a control and its value (two values for
/// a paired control, `product-outcome` and `api-error`).
public struct ControlCommand: Sendable, Hashable {
    public var control: ControlSetting
    public var values: [String]

    public init(control: ControlSetting, values: [String]) {
        self.control = control
        self.values = values
    }

    /// Sets it in `controls`, checked against `catalog` as `manage set` checks it.
    public func apply(to controls: inout TestControls, catalog: Catalog) throws(ControlProblem) {
        try control.apply(values, to: &controls, catalog: catalog)
    }

    static let names = ControlSetting.allCases.map(\.name)

    /// Reads a control and its values; the values are checked later, against the catalog.
    public static func parse(_ words: [String]) -> Result<ControlCommand, WordsProblem> {
        guard let name = words.first else {
            return .failure(WordsProblem("expected a setting and its value, such as \"verification unreachable\""))
        }
        guard let control = ControlSetting(name) else {
            return .failure(
                WordsProblem(
                    "unknown setting \(brief(.string(name))) (expected one of: \(names.joined(separator: ", ")))"))
        }
        let wanted = control.valueCount
        // An empty value (account, storefront) is written as nothing after the name.
        let values = words.count == 1 && wanted == 1 ? [""] : Array(words.dropFirst())
        guard values.count == wanted else {
            return .failure(
                WordsProblem("\(name) takes \(wanted == 1 ? "one value" : "two values"), found \(values.count)"))
        }
        return .success(ControlCommand(control: control, values: values))
    }
}

/// What is wrong with a command's words.
public struct WordsProblem: Error, Sendable, Hashable {
    public let message: String

    init(_ message: String) {
        self.message = message
    }
}

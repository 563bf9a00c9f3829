import StoreKitModel

/// The words `storefront manage` takes, the one spelling of them: its subcommands, a scenario's
/// `manage` steps and a tape's `Store` steps all read these. Every word but `set` names a
/// transaction-manager action (`message` and `purchase-intent` the App Store's side of an
/// account); `set` changes a test control (see `ControlSetting`).
public enum ManageVerb: String, CaseIterable, Sendable, Hashable {
    case approve, decline, resolve, refund
    case requestRefund = "request-refund"
    case declineRefund = "decline-refund"
    case reverseRefund = "reverse-refund"
    case expire, renew, delete
    case stopSharing = "stop-sharing"
    case serverFinish = "server-finish"
    case autoRenew = "auto-renew"
    case priceIncrease = "price-increase"
    case clear, reset
    /// `family add ACCOUNT --family NAME`, `family remove ACCOUNT`: a Sandbox Test Family edited.
    case family
    /// A transaction made outside the device (`TransactionCreation`): its words are its own.
    case create
    case message
    case purchaseIntent = "purchase-intent"
    /// `assign ID --to ACCOUNT`: a purchase an organization or group assigns to a member.
    case assign
    case set

    /// The actions, in the order messages list them: every word but `set`.
    public static let actions = allCases.filter { $0 != .set }

    /// Whether the action names one transaction; `clear` and `reset` act on the whole store,
    /// `family` and `message` and `purchase-intent` on an account, and `create` makes one.
    public var takesTransaction: Bool {
        switch self {
        case .clear, .reset, .family, .create, .set, .message, .purchaseIntent: false
        default: true
        }
    }

    /// How an action names the account it acts for (`clear --account kid`, `message generic
    /// --account alice`).
    public static let accountOption = "--account"
    /// How `purchase-intent` names the offer the customer redeemed on the App Store.
    public static let offerOption = "--offer"
    /// How `assign` names the account a purchase is assigned to.
    public static let assignOption = "--to"

    /// The words one of which stands between the verb and its transaction: `on` or `off` for
    /// auto-renew, a step for price-increase; none for the others.
    public var choices: [String] {
        switch self {
        case .autoRenew: Switch.allCases.map(\.rawValue)
        case .priceIncrease: PriceIncreaseStep.allCases.map(\.rawValue)
        case .message: StoreMessageReason.sendable.map(\.rawValue)
        default: []
        }
    }

    /// The choices as a sentence says them: "request, consent or decline".
    public var choicesInWords: String {
        PaymentOutcome.alternatives(choices)
    }

    /// Whether the verb takes `--reason`: `refund` (`RefundReason`, why the App Store refunds) and
    /// `request-refund` (`RefundRequestReason`, why the customer asks).
    public var takesReason: Bool { !reasons.isEmpty }

    /// The words `--reason` takes after the verb; none for a verb without a reason.
    public var reasons: [String] {
        switch self {
        case .refund: RefundReason.allCases.map(\.rawValue)
        case .requestRefund: RefundRequestReason.allCases.map(\.rawValue)
        default: []
        }
    }

    /// The reasons as a sentence says them: "other or app-issue".
    public var reasonsInWords: String {
        PaymentOutcome.alternatives(reasons)
    }

    /// The verb and its choices, as help and messages show it: `auto-renew on|off`,
    /// `refund [--reason other|app-issue] [--percentage P]`.
    public var usage: String {
        if self == .family { return "family add ACCOUNT \(Self.familyOption) NAME|family remove ACCOUNT" }
        if self == .create {
            return
                "create PRODUCT \(TransactionCreation.accountOption) A \(TransactionCreation.dateOption) DATE [\(TransactionCreation.tokenOption) UUID] [\(TransactionCreation.offerOption) ID] [\(TransactionCreation.autoRenewOption) off]"
        }
        if self == .message {
            return "\(rawValue) \(choices.joined(separator: "|")) \(Self.accountOption) A"
        }
        if self == .assign { return "assign ID \(Self.assignOption) ACCOUNT" }
        if self == .purchaseIntent {
            return "\(rawValue) PRODUCT [\(Self.offerOption) ID] \(Self.accountOption) A"
        }
        if self == .refund {
            return
                "\(rawValue) [\(RefundReason.option) \(reasons.joined(separator: "|"))] [\(RefundPercentage.option) P]"
        }
        if takesReason {
            return "\(rawValue) [\(RefundReason.option) \(reasons.joined(separator: "|"))]"
        }
        return choices.isEmpty ? rawValue : "\(rawValue) \(choices.joined(separator: "|"))"
    }

    /// The action the verb names with `choice` (one of `choices`; nil for a verb without any),
    /// `reason` and `percentage` (`refund` only: a prorated refund's share), `requestReason`
    /// (`request-refund` only; `other` when nil) or `account` (`clear`: that account's history;
    /// `family`: the account moved, with `choice` `add` and `family`, or `remove`; `message` and
    /// `purchase-intent`: the account sent to), `product` and `offer` (`purchase-intent` only), to
    /// be made once its transaction is known (`clear`, `reset`, `family`, `message` and
    /// `purchase-intent` ignore it). nil when the choice or the reason does not fit the verb, and
    /// for `set`, which is no action.
    public func action(
        choice: String? = nil, reason: RefundReason? = nil, requestReason: RefundRequestReason? = nil,
        percentage: RefundPercentage? = nil, account: String? = nil, family: String? = nil, product: String? = nil,
        offer: String? = nil
    ) -> (@Sendable (String) -> ManageAction)? {
        let refundWords = reason != nil || requestReason != nil || percentage != nil
        if self == .family || family != nil {
            guard self == .family, !refundWords, product == nil, offer == nil else { return nil }
            return familyAction(choice: choice, account: account, family: family)
        }
        switch self {
        case .message:
            guard let account, let choice, let sent = StoreMessageReason(rawValue: choice),
                StoreMessageReason.sendable.contains(sent), !refundWords, product == nil, offer == nil
            else { return nil }
            return { _ in .sendMessage(account: account, reason: sent) }
        case .purchaseIntent:
            guard let account, let product, choice == nil, !refundWords else { return nil }
            return { _ in .purchaseIntent(account: account, productId: product, offerId: offer) }
        case .assign:
            guard let account, choice == nil, !refundWords, product == nil, offer == nil else { return nil }
            return { .assign($0, account: account) }
        default:
            guard product == nil, offer == nil else { return nil }
        }
        if let account {
            // `clear --account A`: the sandbox's Clear Purchase History, for that account only.
            guard self == .clear, choice == nil, reason == nil, requestReason == nil, percentage == nil else {
                return nil
            }
            return { _ in .clearAccount(account) }
        }
        if let percentage {
            guard self == .refund, choice == nil, requestReason == nil else { return nil }
            let revocationReason = (reason ?? .other).revocationReason
            return { .refund($0, reason: revocationReason, percentage: percentage) }
        }
        if let requestReason {
            guard self == .requestRefund, choice == nil, reason == nil else { return nil }
            return { .requestRefund($0, reason: requestReason) }
        }
        if let reason {
            guard self == .refund, choice == nil else { return nil }
            return { .refund($0, reason: reason.revocationReason) }
        }
        guard let choice else { return plainAction }
        switch self {
        case .autoRenew:
            guard let setting = Switch(rawValue: choice) else { return nil }
            return { .setAutoRenew($0, setting.isOn) }
        case .priceIncrease:
            guard let step = PriceIncreaseStep(rawValue: choice) else { return nil }
            return { .priceIncrease($0, step) }
        default:
            return nil
        }
    }

    /// How `family add` names the family the account joins.
    public static let familyOption = "--family"

    /// `family add ACCOUNT --family NAME` or `family remove ACCOUNT`; nil for any other words.
    private func familyAction(choice: String?, account: String?, family: String?) -> (
        @Sendable (String) -> ManageAction
    )? {
        switch (choice, account, family) {
        case ("add"?, let account?, let family?): { _ in .setFamily(account: account, family: family) }
        case ("remove"?, let account?, nil): { _ in .setFamily(account: account, family: nil) }
        default: nil
        }
    }

    private var plainAction: (@Sendable (String) -> ManageAction)? {
        switch self {
        case .approve: ManageAction.approveAskToBuy
        case .decline: ManageAction.declineAskToBuy
        case .resolve: ManageAction.resolveIssue
        case .refund: { .refund($0) }
        case .requestRefund: { .requestRefund($0) }
        case .declineRefund: ManageAction.declineRefund
        case .reverseRefund: ManageAction.reverseRefund
        case .expire: ManageAction.expireSubscription
        case .renew: ManageAction.forceRenewal
        case .delete: ManageAction.delete
        case .stopSharing: ManageAction.stopSharing
        case .serverFinish: ManageAction.serverFinish
        case .clear: { _ in .clearAll }
        case .reset: { _ in .resetToDefaults }
        case .autoRenew, .priceIncrease, .family, .create, .set, .message, .purchaseIntent, .assign: nil
        }
    }
}

/// `on` or `off`: how the manager's words and the test controls spell a switch.
public enum Switch: String, CaseIterable, Sendable, Hashable {
    case on, off

    /// "on or off".
    public static let inWords = PaymentOutcome.alternatives(allCases.map(\.rawValue))

    public init(_ isOn: Bool) {
        self = isOn ? .on : .off
    }

    public var isOn: Bool { self == .on }
}

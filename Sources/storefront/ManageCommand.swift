import ArgumentParser
import StoreCore
import StoreKitModel

/// The transaction manager and test controls, as in Xcode.
struct ManageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manage",
        abstract: "Transaction manager and test controls.",
        discussion: """
            Each action takes the store options (--account, --state, --store, …) after its arguments, e.g.
            storefront manage approve ID --account kid. `storefront manage set --help` lists every setting.
            """,
        subcommands: [
            Approve.self, Decline.self, Resolve.self, Refund.self, RequestRefund.self, DeclineRefund.self,
            ReverseRefund.self,
            Expire.self,
            Renew.self, AutoRenew.self, PriceIncrease.self,
            StopSharing.self, ManageAssignCommand.self, ServerFinish.self,
            Delete.self, Clear.self, Reset.self, ManageCreateCommand.self, Message.self, PurchaseIntent.self,
            ManageFamilyCommand.self, SetControl.self,
        ]
    )

    /// Also read here, so the options may come before the action (`manage --account kid approve ID`)
    /// and a mistyped action is reported as such rather than as an unknown option.
    @OptionGroup var options: StoreOptions

    /// Runs one manager action and prints what it changed: `verb` with `choice` (or `reason`) on
    /// transaction `id`.
    static func perform(
        _ verb: ManageVerb, choice: String? = nil, reason: RefundReason? = nil, percentage: RefundPercentage? = nil,
        on id: String? = nil, options: StoreOptions
    ) async throws {
        guard let action = verb.action(choice: choice, reason: reason, percentage: percentage) else {
            throw CommandFailure.usage("manage takes \(verb.usage)")
        }
        let words =
            [verb.rawValue] + [choice, id].compactMap { $0 }
            + (reason.map { [RefundReason.option, $0.rawValue] } ?? [])
            + (percentage.map { [RefundPercentage.option, $0.text] } ?? [])
        try await perform(action(id ?? ""), words: words, options: options)
    }

    /// Runs `action` and prints what it changed, after the `words` that asked for it.
    static func perform(_ action: ManageAction, words: [String], options: StoreOptions) async throws {
        try await perform(words: words, options: options) { _ in action }
    }

    /// Runs the action `make` names for the session's account (`--account`, else the store's
    /// account setting, else the catalog's first) and prints what it changed.
    static func perform(words: [String], options: StoreOptions, _ make: (StoreSession) -> ManageAction)
        async throws
    {
        let session = try await options.open()
        let action = make(session)
        do {
            if case .setAutoRenew(let id, false) = action {
                try await printRetentionMessage(transactionId: id, store: session.store)
            }
            let updates = try await session.store.perform(action)
            Console.out(
                "\(words.joined(separator: " ")): done"
                    + updates.map { update in
                        let state =
                            update.transaction.terms?.revocation.map { revocation in
                                let share = revocation.percentage.map { " \($0.text) %" } ?? ""
                                return "refunded\(share) (\(revocation.reason.name))"
                            }
                            ?? update.transaction.state.name
                        return "; \(update.transaction.id) is \(state)"
                    }.joined() + storeSide(of: action))
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    /// What an action did that the app is not told of, marked as the store's side.
    static func storeSide(of action: ManageAction) -> String {
        guard case .declineAskToBuy(let id) = action else { return "" }
        return "; store's side: \(id) declined, nothing charged (the app is sent nothing; it stays deferred)"
    }

    /// As the App Store's cancellation sheet does, the retention message the developer chose (or
    /// the default one) for the plan in force comes before the cancellation is confirmed.
    static func printRetentionMessage(transactionId: String, store: any StoreBackend) async throws {
        // Best effort, as on a device: no message (or a store that cannot say) never stops the cancellation.
        guard let all = try? await store.transactions(account: nil),
            let transaction = PlanInForce.transaction(named: transactionId, among: all),
            let message = try? await store.cancellationMessage(
                account: transaction.payment.account, productId: transaction.productId, locale: retentionLocale)
        else { return }
        Console.out(lines: RetentionMessageText.lines(message))
    }

    /// The locale the command line's cancellations ask for (Apple's `userLocale`).
    static let retentionLocale = "en-US"

    struct Approve: TransactionAction {
        static let verb = ManageVerb.approve
        static let abstract =
            "Approve an Ask to Buy request (it expires after 24 h of store time): the payment goes through."
        @Argument(help: "The deferred transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Decline: TransactionAction {
        static let verb = ManageVerb.decline
        static let abstract =
            "Decline an Ask to Buy request: nothing is charged; as on the App Store, the app is sent nothing and still sees it deferred."
        @Argument(help: "The deferred transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Resolve: TransactionAction {
        static let verb = ManageVerb.resolve
        static let abstract = "Resolve an interrupted purchase: it completes as purchased."
        @Argument(help: "The interrupted transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Refund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.refund.rawValue,
            abstract: "Refund a purchased transaction: it is revoked, with the reason given.",
            discussion: """
                The transaction keeps its expiration date; the refund ends a subscription's access. Servers hear REFUND \
                with revocationReason 0 (other) or 1 (app-issue), and revocationType REFUND_FULL with \
                revocationPercentage 100000, or with --percentage REFUND_PRORATED and the share in thousandths of a \
                percent (25.5 is 25500).
                """)
        @Argument(help: "The transaction's id.") var id: String
        @Option(
            name: .customLong("reason"),
            help: ArgumentHelp(
                "Why the App Store refunds: other (the default) or app-issue (an issue with the app).",
                valueName: RefundReason.allCases.map(\.rawValue).joined(separator: "|")))
        var reason: RefundReason?
        @Option(
            name: .customLong("percentage"),
            help: ArgumentHelp(
                "Refund this share of the transaction (a prorated refund): above 0 and below 100, at most three decimals.",
                valueName: "P"))
        var percentage: String?
        @OptionGroup var options: StoreOptions

        func run() async throws {
            var share: RefundPercentage?
            if let percentage {
                guard let parsed = RefundPercentage(text: percentage) else {
                    throw CommandFailure.usage(
                        "\(RefundPercentage.option) \(percentage.prefix(40)): expected \(RefundPercentage.inWords)")
                }
                share = parsed
            }
            try await ManageCommand.perform(.refund, reason: reason, percentage: share, on: id, options: options)
        }
    }

    struct RequestRefund: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.requestRefund.rawValue,
            abstract:
                "The customer asks for a refund: it waits for `refund` or `decline-refund`; servers hear CONSUMPTION_REQUEST.",
            discussion: """
                CONSUMPTION_REQUEST (for consumables and auto-renewable subscriptions, as Apple sends it) carries the \
                customer's reason as consumptionRequestReason.
                """)
        @Argument(help: "The transaction's id.") var id: String
        @Option(
            name: .customLong("reason"),
            help: ArgumentHelp(
                "Why the customer asks: other (the default), unintended-purchase, fulfillment-issue, unsatisfied-with-purchase or legal.",
                valueName: RefundRequestReason.allCases.map(\.rawValue).joined(separator: "|")))
        var reason: RefundRequestReason = .other
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(
                .requestRefund(id, reason: reason),
                words: [ManageVerb.requestRefund.rawValue, id, RefundReason.option, reason.rawValue], options: options)
        }
    }

    struct ServerFinish: TransactionAction {
        static let verb = ManageVerb.serverFinish
        static let abstract =
            "The app's server finishes the transaction (Finish Transaction): the queue no longer offers it; transactions --json says finishedBy server."
        @Argument(help: "A purchased or restored transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct DeclineRefund: TransactionAction {
        static let verb = ManageVerb.declineRefund
        static let abstract = "The App Store refuses a requested refund; servers hear REFUND_DECLINED."
        @Argument(help: "The transaction whose refund was requested.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct ReverseRefund: TransactionAction {
        static let verb = ManageVerb.reverseRefund
        static let abstract =
            "The App Store reverses a refund it granted: the transaction is no longer revoked; servers hear REFUND_REVERSED."
        @Argument(help: "The refunded transaction.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Expire: TransactionAction {
        static let verb = ManageVerb.expire
        static let abstract = "Expire a subscription now."
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Renew: TransactionAction {
        static let verb = ManageVerb.renew
        static let abstract =
            "Renew a subscription now; with billing-issues on, the renewal fails to bill and billing retry starts."
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct StopSharing: TransactionAction {
        static let verb = ManageVerb.stopSharing
        static let abstract =
            "The purchaser stops sharing a purchase with the family: members' copies are revoked; servers hear REVOKE."
        @Argument(help: "The purchaser's transaction (any of a subscription's).") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Delete: TransactionAction {
        static let verb = ManageVerb.delete
        static let abstract = "Delete a transaction from the store."
        @Argument(help: "The transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct AutoRenew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.autoRenew.rawValue, abstract: "Turn a subscription's auto-renew on or off.",
            discussion: "Off, it runs to the end of its period and expires (expiration reason autoRenewDisabled).")
        @Argument(help: ManageCommand.choiceHelp(.autoRenew)) var setting: Switch
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.autoRenew, choice: setting.rawValue, on: id, options: options)
        }
    }

    struct PriceIncrease: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.priceIncrease.rawValue,
            abstract: "Ask for, consent to or decline a subscription's price increase.",
            discussion: """
                A request sets the next renewal's price (--price, in the subscription's currency; without it, a \
                tenth more). Without consent by the end of its period, the subscription expires \
                (didNotConsentToPriceIncrease); with consent, or with --no-consent, the next renewal charges the \
                new price.
                """)
        @Argument(help: ManageCommand.choiceHelp(.priceIncrease)) var step: PriceIncreaseStep
        @Argument(help: "A transaction of the subscription.") var id: String
        @Option(help: ArgumentHelp("The new renewal price (request only), e.g. 5.99.", valueName: "decimal"))
        var price: String?
        @Flag(help: "An increase the customer need not consent to (request only): Apple tells them, and it applies.")
        var noConsent = false
        @OptionGroup var options: StoreOptions

        func validate() throws {
            guard step == .request || (price == nil && !noConsent) else {
                throw ValidationError("--price and --no-consent go with `request` only")
            }
        }

        func run() async throws {
            var terms: PriceIncreaseTerms?
            if step == .request, price != nil || noConsent {
                guard let asked = PriceIncreaseTerms(priceText: price, needsConsent: !noConsent) else {
                    throw CommandFailure.usage("--price \(price ?? "") is not a positive decimal such as 5.99")
                }
                terms = asked
            }
            let words = [ManageVerb.priceIncrease.rawValue, step.rawValue, id]
            try await ManageCommand.perform(.priceIncrease(id, step, terms), words: words, options: options)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.clear.rawValue,
            abstract: "Delete every transaction, or with --account one account's purchase history.",
            discussion: """
                With --account, as the sandbox's Clear Purchase History: the account's transactions go, and it may \
                take introductory offers again; the app and its server are told nothing (restore or sync to see \
                it). Other accounts keep theirs, but for the family's copies of its purchases.
                """)
        @OptionGroup var options: StoreOptions

        func run() async throws {
            guard let account = options.account else {
                return try await ManageCommand.perform(.clear, options: options)
            }
            try await ManageCommand.perform(
                .clearAccount(account), words: [ManageVerb.clear.rawValue, "--account", account], options: options)
        }
    }

    struct Message: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.message.rawValue,
            abstract: "Send the account a StoreKit message, as the App Store does (Message.messages).",
            discussion: """
                The message waits in the store until an app of the account takes it, once: the terminal shows it \
                over the main screen, StoreKit's Message.messages yields it. A tester sends a generic message; a \
                billing issue and a price increase come with the subscription's state, and a win-back offer's \
                message when the account becomes eligible for the offer (manage set win-back-messages off \
                suppresses it).
                """)
        @Argument(help: ManageCommand.choiceHelp(.message)) var reason: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            guard let sent = StoreMessageReason(rawValue: reason), StoreMessageReason.sendable.contains(sent) else {
                throw CommandFailure.usage(
                    "message \(reason): expected \(StoreMessageReason.sendableInWords) (billingIssue and priceIncreaseConsent come with the subscription's state, winBackOffer when the account becomes eligible)"
                )
            }
            try await ManageCommand.perform(words: [ManageVerb.message.rawValue, reason], options: options) {
                .sendMessage(account: $0.account.name, reason: sent)
            }
        }
    }

    struct PurchaseIntent: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.purchaseIntent.rawValue,
            abstract: "Start a purchase on the App Store for the app to complete (PurchaseIntent.intents).",
            discussion: """
                As a customer tapping a promoted in-app purchase on the App Store, or with --offer redeeming a \
                subscription's win-back offer there (the account must be eligible for it). The intent waits in the \
                store until an app of the account takes it, once: the terminal shows the promoted purchase's \
                sheet, whose Enter buys with the offer; StoreKit's PurchaseIntent.intents yields it.
                """)
        @Argument(help: "The product's id (see storefront products).") var product: String
        @Option(help: ArgumentHelp("The win-back offer redeemed on the App Store.", valueName: "id"))
        var offer: String?
        @OptionGroup var options: StoreOptions

        func run() async throws {
            let words =
                [ManageVerb.purchaseIntent.rawValue, product] + (offer.map { [ManageVerb.offerOption, $0] } ?? [])
            try await ManageCommand.perform(words: words, options: options) {
                .purchaseIntent(account: $0.account.name, productId: product, offerId: offer)
            }
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.reset.rawValue,
            abstract: "Reset the test controls and the store to the catalog's defaults.")
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.reset, options: options)
        }
    }

    /// The help of a verb's choice argument: "on or off." shown as `<on|off>`.
    static func choiceHelp(_ verb: ManageVerb) -> ArgumentHelp {
        ArgumentHelp("\(verb.choicesInWords).", valueName: verb.choices.joined(separator: "|"))
    }
}

extension Switch: ExpressibleByArgument {}

extension PriceIncreaseStep: ExpressibleByArgument {}

extension RefundReason: ExpressibleByArgument {}
extension RefundRequestReason: ExpressibleByArgument {}

/// A manager action on one transaction: `manage VERB ID`.
protocol TransactionAction: AsyncParsableCommand {
    static var verb: ManageVerb { get }
    static var abstract: String { get }
    var id: String { get }
    var options: StoreOptions { get }
}

extension TransactionAction {
    static var configuration: CommandConfiguration {
        CommandConfiguration(commandName: verb.rawValue, abstract: abstract)
    }

    func run() async throws {
        try await ManageCommand.perform(Self.verb, on: id, options: options)
    }
}

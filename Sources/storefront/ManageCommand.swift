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
            Approve.self, Decline.self, Resolve.self, Refund.self, RequestRefund.self, DeclineRefund.self, Expire.self, Renew.self, AutoRenew.self, PriceIncrease.self,
            StopSharing.self,
            Delete.self, Clear.self, Reset.self, Set.self,
        ]
    )

    /// Also read here, so the options may come before the action (`manage --account kid approve ID`)
    /// and a mistyped action is reported as such rather than as an unknown option.
    @OptionGroup var options: StoreOptions

    /// Runs one manager action and prints what it changed.
    static func perform(_ action: ManageAction, named words: [String], options: StoreOptions) async throws {
        let session = try await options.open()
        do {
            let updates = try await session.store.perform(action)
            Console.out("\(words.joined(separator: " ")): done" + updates.map { update in
                let state = update.transaction.terms?.revocation.map { "refunded (\($0.reason.name))" } ?? update.transaction.state.name
                return "; \(update.transaction.id) is \(state)"
            }.joined())
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    struct Approve: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "approve", abstract: "Approve an Ask to Buy request: the payment goes through.")
        static let action = ManageAction.approveAskToBuy
        @Argument(help: "The deferred transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Decline: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "decline", abstract: "Decline an Ask to Buy request: the payment fails, nothing is charged.")
        static let action = ManageAction.declineAskToBuy
        @Argument(help: "The deferred transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Resolve: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Resolve an interrupted purchase: it completes as purchased.")
        static let action = ManageAction.resolveIssue
        @Argument(help: "The interrupted transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Refund: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "refund", abstract: "Refund a purchased transaction.")
        static let action = ManageAction.refund
        @Argument(help: "The transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct RequestRefund: TransactionAction {
        static let configuration = CommandConfiguration(
            commandName: "request-refund",
            abstract: "The customer asks for a refund: it waits for `refund` or `decline-refund`; servers hear CONSUMPTION_REQUEST.")
        static let action = ManageAction.requestRefund
        @Argument(help: "The transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct DeclineRefund: TransactionAction {
        static let configuration = CommandConfiguration(
            commandName: "decline-refund", abstract: "The App Store refuses a requested refund; servers hear REFUND_DECLINED.")
        static let action = ManageAction.declineRefund
        @Argument(help: "The transaction whose refund was requested.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Expire: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "expire", abstract: "Expire a subscription now.")
        static let action = ManageAction.expireSubscription
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Renew: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "renew", abstract: "Renew a subscription now; with billing-issues on, the renewal fails to bill and billing retry starts.")
        static let action = ManageAction.forceRenewal
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct StopSharing: TransactionAction {
        static let configuration = CommandConfiguration(
            commandName: "stop-sharing",
            abstract: "The purchaser stops sharing a purchase with the family: members' copies are revoked; servers hear REVOKE.")
        static let action = ManageAction.stopSharing
        @Argument(help: "The purchaser's transaction (any of a subscription's).") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct Delete: TransactionAction {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Delete a transaction from the store.")
        static let action = ManageAction.delete
        @Argument(help: "The transaction's id.") var id: String
        @OptionGroup var options: StoreOptions
    }

    struct AutoRenew: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "auto-renew", abstract: "Turn a subscription's auto-renew on or off.",
            discussion: "Off, it runs to the end of its period and expires (expiration reason autoRenewDisabled).")
        @Argument(help: ArgumentHelp("on or off.", valueName: "on|off")) var setting: Switch
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.setAutoRenew(id, setting == .on), named: ["auto-renew", setting.rawValue, id], options: options)
        }
    }

    struct PriceIncrease: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "price-increase", abstract: "Ask for, consent to or decline a subscription's price increase.",
            discussion: "Without consent by the end of its period, the subscription expires (didNotConsentToPriceIncrease).")
        @Argument(help: ArgumentHelp("request, consent or decline.", valueName: "request|consent|decline")) var step: PriceIncreaseStep
        @Argument(help: "A transaction of the subscription.") var id: String
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.priceIncrease(id, step), named: ["price-increase", step.rawValue, id], options: options)
        }
    }

    struct Clear: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Delete every transaction.")
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.clearAll, named: ["clear"], options: options)
        }
    }

    struct Reset: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Reset the test controls and the store to the catalog's defaults.")
        @OptionGroup var options: StoreOptions

        func run() async throws {
            try await ManageCommand.perform(.resetToDefaults, named: ["reset"], options: options)
        }
    }
}

/// `on` or `off`, as the manager's switches read.
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
}

extension PriceIncreaseStep: ExpressibleByArgument {}

/// A manager action on one transaction: `manage NAME ID`.
protocol TransactionAction: AsyncParsableCommand {
    static var action: @Sendable (String) -> ManageAction { get }
    var id: String { get }
    var options: StoreOptions { get }
}

extension TransactionAction {
    func run() async throws {
        try await ManageCommand.perform(Self.action(id), named: [Self.configuration.commandName ?? "", id], options: options)
    }
}

import AppSide
import ArgumentParser
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel

/// The transaction manager and test controls, as in Xcode.
struct ManageCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "manage",
        abstract: "Transaction manager and test controls.",
        discussion: """
        Actions: approve|decline|resolve|refund|expire|renew|delete ID, clear, reset.
        Settings: set ask-to-buy on|off, set payments-allowed on|off, set time-rate RATE (real, 2s, 10s, 30s,
        1m, 5m, 15m, monthly-30s … or Xcode's raw value), set storefront ISO3, set next-outcome
        success|cancel|fail:CODE|network[:CODE]|deferred|interrupted, set latency MS,
        set verification ok|unreachable|STATUS, set account NAME (the default --account),
        set drop-order-id on|off (updates come back without applicationUsername, as field reports describe),
        set product-outcome PRODUCT_ID OUTCOME|none (every payment of that product, until none).
        """
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "The action and its arguments.")
    var words: [String]

    func run() async throws {
        let session = try await options.open()
        let store = session.store
        do {
            if words.first == "set" {
                var controls = try await store.controls()
                try Self.apply(Array(words.dropFirst()), to: &controls, catalog: session.context.catalog)
                try await store.setControls(controls)
                Console.out("set \(words.dropFirst().joined(separator: " "))")
                return
            }
            let updates = try await store.perform(try Self.action(words))
            Console.out("\(words.joined(separator: " ")): done" + updates.map { "; \($0.transaction.id) is \($0.transaction.state.name)" }.joined())
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    static func action(_ words: [String]) throws -> ManageAction {
        switch (words.first, words.count) {
        case ("clear", 1): return .clearAll
        case ("reset", 1): return .resetToDefaults
        case ("approve", 2): return .approveAskToBuy(words[1])
        case ("decline", 2): return .declineAskToBuy(words[1])
        case ("resolve", 2): return .resolveIssue(words[1])
        case ("refund", 2): return .refund(words[1])
        case ("expire", 2): return .expireSubscription(words[1])
        case ("renew", 2): return .forceRenewal(words[1])
        case ("delete", 2): return .delete(words[1])
        default: throw CommandFailure.usage("manage \(words.joined(separator: " ")): unknown action; see storefront manage --help")
        }
    }

    static func apply(_ words: [String], to controls: inout TestControls, catalog: Catalog) throws {
        if words.first == "product-outcome" { return try applyProductOutcome(Array(words.dropFirst()), to: &controls, catalog: catalog) }
        guard words.count == 2 else { throw CommandFailure.usage("manage set needs a setting and a value; see storefront manage --help") }
        let value = words[1]
        let flag = { () throws -> Bool in
            guard value == "on" || value == "off" else { throw CommandFailure.usage("\(words[0]): expected on or off, got \(value)") }
            return value == "on"
        }
        switch words[0] {
        case "ask-to-buy": controls.askToBuy = try flag()
        case "payments-allowed": controls.paymentsAllowed = try flag()
        case "time-rate":
            guard let rate = TimeRate(token: value) else { throw CommandFailure.usage("time-rate \(value): expected one of \(TimeRate.allCases.map(\.token).joined(separator: ", "))") }
            controls.timeRate = rate
        case "storefront":
            guard catalog.storefront(id: value.uppercased()) != nil else {
                throw CommandFailure.usage("storefront \(value): not a storefront of this catalog (it has \(catalog.storefronts.map(\.id).joined(separator: ", ")))")
            }
            controls.storefront = value.uppercased()
        case "account":
            guard catalog.account(named: value) != nil else {
                throw CommandFailure.usage("account \(value): not an account of this catalog (it has \(catalog.accounts.map(\.name).joined(separator: ", ")))")
            }
            controls.account = value
        case "drop-order-id": controls.dropOrderIds = try flag()
        case "next-outcome":
            guard let outcome = PaymentOutcome(token: value) else { throw CommandFailure.usage("next-outcome \(value): expected success, cancel, fail:CODE, network[:CODE], deferred or interrupted") }
            controls.nextOutcome = outcome
        case "latency":
            guard let milliseconds = Int(value), (0...600_000).contains(milliseconds) else { throw CommandFailure.usage("latency \(value): expected milliseconds, 0 to 600000") }
            controls.latencyMilliseconds = milliseconds
        case "verification":
            if value == "ok" { controls.verificationFailure = nil; return }
            guard let failure = VerificationFailure(token: value) else { throw CommandFailure.usage("verification \(value): expected ok, unreachable or a verifyReceipt status such as 21003") }
            controls.verificationFailure = failure
        default:
            throw CommandFailure.usage("manage set \(words[0]): unknown setting; see storefront manage --help")
        }
    }

    private static func applyProductOutcome(_ words: [String], to controls: inout TestControls, catalog: Catalog) throws {
        guard words.count == 2 else { throw CommandFailure.usage("manage set product-outcome needs a product id and an outcome (or none)") }
        guard catalog.product(id: words[0]) != nil else {
            throw CommandFailure.usage("product-outcome \(words[0]): not a product of this catalog; see storefront products")
        }
        if words[1] == "none" { controls.productOutcomes[words[0]] = nil; return }
        guard let outcome = PaymentOutcome(token: words[1]) else {
            throw CommandFailure.usage("product-outcome \(words[1]): expected success, cancel, fail:CODE, network[:CODE], deferred, interrupted or none")
        }
        controls.productOutcomes[words[0]] = outcome
    }
}

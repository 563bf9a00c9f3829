import AppSide
import ArgumentParser
import Foundation
import LocalState
import StoreClient
import StoreCore
import StoreEngine
import StoreKitModel

struct BuyCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "buy",
        abstract: "Buy a product headlessly and print every transaction update and app step.",
        discussion: """
            Runs the whole flow as a careful app does: transactions left unfinished by an earlier run are
            handled first, then the payment is added; on purchased the app delivers once, records it in its
            ledger, verifies the receipt and finishes. Exit status: 0 purchased, restored (owned already,
            or a plan change waiting for the renewal) or deferred, 3 failed or cancelled.
            """
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "The product identifier.")
    var productId: String

    @Option(name: .long, help: "Quantity, 1 to 10.")
    var quantity = 1

    @Option(name: .long, help: ArgumentHelp("The app's order id, sent as applicationUsername.", valueName: "id"))
    var order: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Force this purchase's outcome: success, cancel, fail:CODE, network[:CODE], deferred, interrupted.",
            valueName: "outcome"))
    var outcome: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A promotional offer (signed with the catalog's offers key, or the one the store keeps for it: see `offers key`) or a win-back offer.",
            valueName: "offer-id"))
    var offer: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A promotional offer's signature made elsewhere (base64 DER), with --offer and the values it signed.",
            valueName: "base64"))
    var offerSignature: String?

    @Option(
        name: .long,
        help: ArgumentHelp("The key id the signature was made with (default: the offers key's).", valueName: "key-id"))
    var offerKeyId: String?

    @Option(name: .long, help: ArgumentHelp("The nonce the signature covers (a UUID).", valueName: "uuid"))
    var offerNonce: String?

    @Option(
        name: .long, help: ArgumentHelp("When the signature was made, in milliseconds since 1970.", valueName: "ms"))
    var offerTimestamp: Int64?

    @Option(name: .long, help: ArgumentHelp("Redeem an offer code with the purchase.", valueName: "code"))
    var offerCode: String?

    @Option(
        name: .customLong("offer-jws"),
        help: ArgumentHelp(
            "A promotional offer signed as a compact JWS (Apple's PromotionalOfferV2SignatureCreator), as StoreKit's .promotionalOffer(_:compactJWS:) sends it; the offer is its offerIdentifier.",
            valueName: "jws"))
    var offerJWS: String?

    @Option(
        name: .customLong("intro-eligibility-jws"),
        help: ArgumentHelp(
            "The app server's decision on the introductory offer, a compact JWS (Apple's IntroductoryOfferEligibilitySignatureCreator), as StoreKit's .introductoryOfferEligibility(compactJWS:) sends it.",
            valueName: "jws"))
    var introEligibilityJWS: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "How a subscription is paid: upFront, or monthly (twelve monthly payments with a 12-month commitment, where the product offers it).",
            valueName: "plan"))
    var billingPlan: String?

    @Flag(name: .long, help: "Stop after delivery without verifying or finishing, as an app that crashed.")
    var noFinish = false

    @Flag(name: .long, help: "Print JSON Lines: one object per update and app step, then the result.")
    var json = false

    func run() async throws {
        guard Payment.quantityRange.contains(quantity) else {
            throw CommandFailure.usage("--quantity \(quantity): StoreKit allows 1 to 10")
        }
        let forced = try outcome.map { token -> PaymentOutcome in
            guard let parsed = PaymentOutcome(token: token) else {
                throw CommandFailure.usage(
                    "--outcome \(token): expected success, cancel, fail:CODE, network[:CODE], deferred or interrupted")
            }
            return parsed
        }
        let plan = try billingPlan.map { name -> BillingPlanType in
            guard let plan = BillingPlanType(rawValue: name) else {
                throw CommandFailure.usage("--billing-plan \(name): expected upFront or monthly")
            }
            return plan
        }
        let session = try await options.open()
        // A product the catalog does not know is refused by the store, as any unknown product is.
        if let plan,
            let problem = session.context.catalog.product(id: productId)?.billingPlanProblem(
                plan, in: session.storefront.id)
        {
            throw CommandFailure.usage("--billing-plan \(plan.rawValue): \(problem)")
        }
        let printer = StepPrinter(json: json, language: session.language, locale: session.locale)
        // The order id is chosen first: a promotional offer's signature covers it.
        let orderId = order ?? (offer == nil ? nil : UUID().uuidString.lowercased())
        let paymentOffer = try await requestedOffer(
            catalog: session.context.catalog, orderId: orderId, key: signingKey(session))
        do {
            // The observer comes first: what an earlier run left unfinished is handled before anything new.
            try await StepPrinter.handleUnfinished(session, printer: printer)
            let pending = PendingPayment.blocking(
                productId, in: try await session.observer.pending(account: session.account.name))
            if !pending.isEmpty { printer.pendingWarning(productId, pending) }
            let updates = await session.store.updates()
            let started: Transaction
            do {
                started = try await session.observer.buy(
                    Payment(
                        productId: productId, quantity: quantity, applicationUsername: orderId,
                        account: session.account.name, offer: paymentOffer, billingPlan: plan,
                        introductoryOfferEligibility: introEligibilityJWS.map(SignedRequest.init(compactJWS:))),
                    forcing: forced)
            } catch let failure as StoreFailure where failure.kind == .unavailable {
                throw Self.unconfirmed(failure, transaction: nil, productId: productId)
            }
            printer.update(TransactionUpdate(transaction: started, receipt: nil))
            let settled: TransactionUpdate?
            do {
                settled = try await Self.outcome(of: started, in: updates, store: session.store)
            } catch let failure as StoreFailure where failure.kind == .unavailable {
                printer.unconfirmed(started)
                throw Self.unconfirmed(failure, transaction: started, productId: productId)
            }
            if let update = settled {
                printer.update(update)
                if update.transaction.error == .storeKit(.ineligibleForOffer), let paymentOffer,
                    let reason = try await session.ineligibility(of: paymentOffer, productId: productId)
                {
                    printer.ineligible(reason)
                }
                if update.transaction.error == .storeKit(.invalidOfferIdentifier), case .code(let code)? = paymentOffer
                {
                    printer.unknownCode(code, productId: productId)
                }
                let steps = try await session.observer.handle(update, stopAfterDelivery: noFinish)
                for step in steps { printer.step(step) }
                try printer.result(
                    update.transaction, finished: steps.contains(.finished(transactionId: update.transaction.id)))
                if update.transaction.state == .failed { throw ExitCode(3) }
            }
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

extension BuyCommand {
    /// The update that settles `started` (nil if the updates end first). A remote store's
    /// updates are retried quietly while its server is away, so the wait is raced against the
    /// server's health: a store that stops answering ends it with "store unreachable" within the
    /// retry budget instead of a wait without end.
    static func outcome(
        of started: Transaction, in updates: AsyncStream<TransactionUpdate>, store: any StoreBackend
    ) async throws -> TransactionUpdate? {
        try await withThrowingTaskGroup(of: TransactionUpdate?.self) { group in
            group.addTask {
                for await update in updates
                where update.transaction.id == started.id && update.transaction.state != .purchasing {
                    return update
                }
                return nil
            }
            if let remote = store as? RemoteStore {
                group.addTask {
                    try await remote.untilUnreachable()
                    return nil
                }
            }
            defer { group.cancelAll() }
            return try await group.next() ?? nil
        }
    }

    /// The store went away before it told the payment's outcome: it may or may not have been
    /// charged. The app's ledger keeps the order, and a later run with this state delivers what
    /// the store completed.
    static func unconfirmed(_ failure: StoreFailure, transaction: Transaction?, productId: String) -> CommandFailure {
        let what =
            transaction.map { "payment \($0.id) for \(productId) was accepted" }
            ?? "the payment for \(productId) got no answer"
        return CommandFailure(
            lines: [
                failure.message,
                "\(what), but its outcome is unconfirmed: it may or may not have gone through. The app's ledger "
                    + "keeps the order; once the store answers again, the next `storefront buy` (or the TUI) with "
                    + "this --state delivers what was bought, once.",
            ], status: 1)
    }
    /// The key `--offer` signs a promotional offer with, as the app's server holds it: the
    /// catalog's, or the one the simulated store keeps for a catalog that names none.
    func signingKey(_ session: StoreSession) async throws -> OfferSigningKey? {
        if let key = session.context.catalog.settings.offerSigningKey { return key }
        let promotional =
            offer.flatMap { session.context.catalog.product(id: productId)?.subscription?.offer(id: $0) }?.kind
            == .promotional
        guard promotional, let source = session.offersKeySource else { return nil }
        do {
            return try await source()
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }

    /// The offer the options ask for: an offer code; a win-back offer; a promotional offer with
    /// the signature given, or signed here with the catalog's key. The store checks it.
    func requestedOffer(catalog: Catalog, orderId: String?, key: OfferSigningKey?) throws -> PaymentOffer? {
        if let offerJWS {
            guard offer == nil, offerCode == nil, offerSignature == nil else {
                throw CommandFailure.usage(
                    "--offer-jws names its offer (its offerIdentifier claim); it cannot be combined with --offer, --offer-code or --offer-signature"
                )
            }
            return .signedPromotional(SignedRequest(compactJWS: offerJWS))
        }
        if let offerCode {
            guard offer == nil, offerSignature == nil else {
                throw CommandFailure.usage("--offer-code redeems a code; it cannot be combined with --offer")
            }
            return .code(offerCode)
        }
        let signatureParts = [offerSignature != nil, offerKeyId != nil, offerNonce != nil, offerTimestamp != nil]
        guard let offer else {
            guard !signatureParts.contains(true) else {
                throw CommandFailure.usage("--offer-signature and its values need --offer OFFER_ID")
            }
            return nil
        }
        guard let offerSignature else {
            guard !signatureParts.contains(true) else {
                throw CommandFailure.usage(
                    "--offer-key-id, --offer-nonce and --offer-timestamp go with --offer-signature")
            }
            do {
                return try PromotionalOfferSigner.paymentOffer(
                    offer, productId: productId, applicationUsername: orderId, catalog: catalog, key: key)
            } catch let failure as PromotionalOfferSigner.Failure {
                throw CommandFailure.failure(failure.description)
            }
        }
        // The app sends every payment with its order id, and the signature covers it.
        guard orderId != nil, order != nil else {
            throw CommandFailure.usage(
                "--offer-signature needs --order ORDER_ID: the applicationUsername the signature was made for")
        }
        // Missing values stay empty: the store refuses them as StoreKit does (missingOfferParams).
        return .promotional(
            PaymentDiscount(
                identifier: offer, keyIdentifier: offerKeyId ?? key?.keyId ?? "",
                nonce: offerNonce ?? "", signature: offerSignature, timestamp: offerTimestamp ?? 0))
    }
}

/// Prints updates and steps as text or JSON Lines.
struct StepPrinter {
    let json: Bool
    let language: Language
    /// The locale prices are written in (the session's).
    var locale = "en_US"

    func update(_ update: TransactionUpdate) {
        let transaction = update.transaction
        var object: [String: Any] = [
            "state": transaction.state.name, "transactionId": transaction.id,
            "productId": transaction.productId, "quantity": transaction.quantity,
        ]
        if let receipt = update.receipt { object["receipt"] = receipt }
        if let error = transaction.error {
            object["error"] = ["code": error.code, "name": error.name, "message": error.text(in: language).message]
        }
        let charged = transaction.terms.map(charge)
        if let terms = transaction.terms {
            object["price"] = terms.price.exactString
            object["currency"] = terms.currency
            object["displayPrice"] = PriceFormatter(currency: terms.currency, locale: locale).string(terms.price)
            if let commitment = terms.commitment { object["commitmentProgress"] = commitment.progress }
        }
        emit(
            object,
            text:
                "\(transaction.state.name.padding(toLength: 10, withPad: " ", startingAt: 0)) \(transaction.id)  \(transaction.productId) ×\(transaction.quantity)"
                + (charged.map { "  \($0)" } ?? "")
                + (transaction.error.map { "  \($0.domain) \($0.code) \($0.name): \($0.text(in: language).message)" }
                    ?? ""))
    }

    /// What the transaction charged, as the buyer reads it: "4,99 €", "nothing charged", with a
    /// monthly payment's place in its commitment.
    func charge(_ terms: TransactionTerms) -> String {
        let price =
            terms.price == 0
            ? "nothing charged" : PriceFormatter(currency: terms.currency, locale: locale).string(terms.price)
        return terms.commitment.map { "\(price), \($0.progress)" } ?? price
    }

    func step(_ step: AppStep) {
        switch step {
        case .delivered(let id, let first):
            emit(
                ["step": "delivered", "transactionId": id, "firstTime": first],
                text: first ? "  delivered \(id)" : "  already delivered \(id) (not credited again)")
        case .verified(let id):
            emit(["step": "verified", "transactionId": id], text: "  verified \(id)")
        case .verificationRejected(let id, let reason):
            emit(
                ["step": "warning", "transactionId": id, "message": "verification rejected: \(reason)"],
                text: "  verification rejected for \(id): \(reason)")
        case .verificationDeferred(let id, let reason, _):
            emit(
                [
                    "step": "warning", "transactionId": id,
                    "message": "not verified yet (\(reason)); kept unfinished and retried at next launch",
                ],
                text: "  not verified yet (\(reason)); kept unfinished and retried at next launch")
        case .orderMatched(let id, let orderId):
            emit(
                ["step": "orderMatched", "transactionId": id, "orderId": orderId],
                text: "  applicationUsername came back empty; matched order \(orderId) by account and product")
        case .deliveredElsewhere(let id):
            emit(
                ["step": "deliveredElsewhere", "transactionId": id],
                text: "  \(id) was delivered on another device of the account; this device's delivery was taken back")
        case .finished(let id):
            emit(["step": "finished", "transactionId": id], text: "  finished \(id)")
        case .waitingForApproval(let id):
            emit(
                ["step": "warning", "transactionId": id, "message": "waiting for approval (Ask to Buy); not finished"],
                text: "  waiting for approval (Ask to Buy)")
        case .revoked(let id, let balance, let amount):
            var object: [String: Any] = ["step": "revoked", "transactionId": id, "amount": amount]
            if let balance { object["balance"] = balance }
            emit(
                object,
                text: "  refunded \(id): "
                    + (balance.map { "\(amount) \($0) taken back" } ?? "what it unlocked is withdrawn"))
        case .reinstated(let id, let balance, let amount):
            var object: [String: Any] = ["step": "reinstated", "transactionId": id, "amount": amount]
            if let balance { object["balance"] = balance }
            emit(
                object,
                text: "  refund of \(id) reversed: "
                    + (balance.map { "\(amount) \($0) given back" } ?? "what it unlocked is back"))
        case .showError(let id, let error):
            // The failed update printed just before this step ends with the same sentence: the text
            // says only that the app showed it. JSON keeps it, each line standing on its own.
            emit(
                ["step": "warning", "transactionId": id, "message": error.text(in: language).message],
                text: "  shown to the buyer")
        }
    }

    /// Handles what the queue re-delivers at launch, then re-sends the ledger's unverified entries
    /// the queue no longer offers (another device finished them), printing each update and step.
    static func handleUnfinished(_ session: StoreSession, printer: StepPrinter) async throws {
        try await session.observer.launch(account: session.account.name) { update, steps in
            if let update { printer.update(update) }
            for step in steps { printer.step(step) }
        }
    }

    /// Why the store refused the offer (SKError 18), by the rule it applied.
    func ineligible(_ reason: IneligibleReason) {
        emit(
            ["step": "ineligible", "reason": reason.name, "message": reason.message],
            text: "  not eligible: \(reason.message)")
    }

    /// SKError 11 speaks of promotional offers' identifiers; for a code the buyer typed, say so.
    func unknownCode(_ code: String, productId: String) {
        let message =
            "the offer code \(code) is not a code of \(productId)'s offers (codes are matched exactly, letters and digits as typed)"
        emit(["step": "invalidCode", "code": code, "message": message], text: "  invalid code: \(message)")
    }

    func pendingWarning(_ productId: String, _ pending: [PendingPayment]) {
        let list = pending.map { "\($0.transactionId) (\($0.waitingFor))" }.joined(separator: "; ")
        emit(
            [
                "step": "warning", "productId": productId, "pending": pending.map(\.transactionId),
                "message": "a payment for \(productId) is already pending: \(list); paying again may charge twice",
            ],
            text: "  warning: a payment for \(productId) is already pending: \(list); paying again may charge twice")
    }

    /// The store went away while `transaction` was still purchasing.
    func unconfirmed(_ transaction: Transaction) {
        emit(
            ["result": "unconfirmed", "transactionId": transaction.id, "finished": false],
            text: "result: unconfirmed (the store stopped answering)")
    }

    func result(_ transaction: Transaction, finished: Bool) throws {
        let result =
            switch transaction.state {
            case .purchased: "purchased"
            // Owned already, the plan in force, or a plan change waiting for the renewal: nothing
            // was charged, and the app got a copy in what the account has.
            case .restored: "restored"
            case .deferred: "deferred"
            case .failed: transaction.error == .storeKit(.paymentCancelled) ? "cancelled" : "failed"
            case .purchasing: "purchasing"
            }
        emit(
            ["result": result, "transactionId": transaction.id, "finished": finished],
            text: "result: \(result)\(finished ? " (finished)" : "")")
    }

    func emit(_ object: [String: Any], text: String) {
        guard json else {
            Console.out(text)
            return
        }
        let data =
            (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
            ?? Data()
        Console.json(String(decoding: data, as: UTF8.self))
    }
}

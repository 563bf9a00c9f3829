import Foundation
import StoreCore
import StoreKitModel

/// One `Product.purchase`: the payment added to the account's queue, then its final state
/// awaited and answered as StoreKit 2 answers it. A failed payment is finished here, as StoreKit
/// 2 never shows an app a failed transaction.
struct PurchaseFlow {
    let store: OpenedStore

    func purchase(_ productID: String, options: Set<Product.PurchaseOption>) async throws -> Product.PurchaseResult {
        let payment = try payment(for: productID, options: options)
        let token = await InFlightPurchases.shared.begin(productID: productID)
        var returned: UInt64?
        defer {
            Task { [returned, store] in
                await InFlightPurchases.shared.end(token, returned: returned.map { (store.storeID, $0) })
            }
        }
        let updates = await store.backend.updates()
        let added = try await StoreKitCall.run { try await store.backend.add(payment) }
        let final = try await finalState(of: added, in: updates)
        return try await answer(final, returned: &returned)
    }

    /// What `purchase` answers for the payment's final state; `returned` is the transaction
    /// handed to the app as the result.
    func answer(_ final: StoreKitModel.Transaction, returned: inout UInt64?) async throws -> Product.PurchaseResult {
        switch final.state {
        case .purchased, .restored:
            let result = try await TransactionSigning.verified([final], store: store)
            guard let verification = result.first else {
                throw StoreKitError.systemError(StoreFailure("the store signed no JWS for transaction \(final.id)"))
            }
            returned = UInt64(final.id)
            return .success(verification)
        case .deferred:
            return .pending
        case .failed:
            return try await failed(final)
        case .purchasing:
            throw StoreKitError.unknown
        }
    }

    /// The first state past `purchasing`, from the updates (or the add itself when it was final).
    func finalState(of added: StoreKitModel.Transaction, in updates: AsyncStream<TransactionUpdate>)
        async throws -> StoreKitModel.Transaction
    {
        if added.state != .purchasing { return added }
        for await update in updates where update.transaction.id == added.id && update.transaction.state != .purchasing {
            return update.transaction
        }
        try Task.checkCancellation()
        throw StoreKitError.networkError(URLError(.networkConnectionLost))
    }

    /// An interrupted purchase waits for the customer (it completes through `Transaction.updates`);
    /// a cancelled one is the customer's choice; anything else is StoreKit's error.
    private func failed(_ transaction: StoreKitModel.Transaction) async throws -> Product.PurchaseResult {
        try? await store.backend.finish(transactionId: transaction.id, account: store.account.name)
        if transaction.failureContext == .interrupted { return .pending }
        let error = transaction.error ?? .storeKit(.unknown)
        if error == .storeKit(.paymentCancelled) { return .userCancelled }
        throw StoreKitErrors.mapped(error)
    }

    func payment(for productID: String, options: Set<Product.PurchaseOption>) throws -> Payment {
        var quantity = 1
        var token: UUID?
        var offer: PaymentOffer?
        var plan: StoreKitModel.BillingPlanType?
        var eligibility: SignedRequest?
        for option in options {
            switch option.kind {
            case .quantity(let value): quantity = value
            case .appAccountToken(let value): token = value
            case .promotional(let discount): offer = .promotional(discount)
            case .signedPromotional(_, let jws): offer = .signedPromotional(SignedRequest(compactJWS: jws))
            case .introductoryOfferEligibility(let jws): eligibility = SignedRequest(compactJWS: jws)
            case .winBack(let id): offer = .winBack(id)
            case .billingPlan(let type): plan = type.plan
            }
        }
        guard Payment.quantityRange.contains(quantity) else { throw Product.PurchaseError.invalidQuantity }
        return Payment(
            productId: productID, quantity: quantity, applicationUsername: token?.uuidString.lowercased(),
            account: store.account.name, offer: offer, billingPlan: plan, introductoryOfferEligibility: eligibility)
    }
}

extension OpenedStore {
    /// A purchase made outside the app (StoreKitTest's `buyProduct`): the app hears of it through
    /// `Transaction.updates`, as of a purchase on another device.
    @_spi(Storefront) public func buyOutsideTheApp(_ productID: String, options: Set<Product.PurchaseOption>)
        async throws -> Transaction
    {
        let flow = PurchaseFlow(store: self)
        let payment = try flow.payment(for: productID, options: options)
        let updates = await backend.updates()
        let added = try await StoreKitCall.run { try await backend.add(payment) }
        var returned: UInt64?
        switch try await flow.answer(try await flow.finalState(of: added, in: updates), returned: &returned) {
        case .success(let verification): return verification.unsafePayloadValue
        case .userCancelled: throw StoreKitError.userCancelled
        case .pending: throw SKPendingPurchase()
        }
    }
}

/// A purchase made outside the app that waits for approval: it has no transaction yet.
struct SKPendingPurchase: Error, CustomStringConvertible {
    var description: String { "the purchase is waiting for approval (Ask to Buy) or for the customer" }
}

import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// Every field of one transaction, as `storefront transactions --json` names them, then the
/// subscription it belongs to and its renewal info: what Xcode's transaction manager shows of
/// a transaction, where the manager's row has room for a few.
extension Sheets {
    /// Field names line up in a column this wide; "gracePeriodExpirationDate" is the longest.
    static let inspectorKeyColumn = 27

    static func inspectorSheet(
        _ inspector: TransactionInspector, _ state: AppState, _ strings: UIStrings, _ hints: KeyHints
    ) -> (String, [Line], String) {
        let title = strings.inspectorTitle(inspector.transactionId)
        let lines = inspectorLines(inspector.transactionId, state, strings)
        let room = room(for: state.size)
        guard lines.count > room else { return (title, lines, hints.message) }
        let first = min(max(0, inspector.scroll), lines.count - room)
        return (title, lines, hints.scrolling(from: first + 1, to: first + room, of: lines.count))
    }

    /// The furthest the inspector scrolls: its last line at the bottom of the box.
    static func inspectorMaxScroll(_ state: AppState, _ transactionId: String) -> Int {
        max(0, inspectorLines(transactionId, state, UIStrings(state.language)).count - room(for: state.size))
    }

    static func inspectorLines(_ id: String, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let rows = Presentation.managerRows(state)
        guard let transaction = rows.first(where: { $0.id == id }) else {
            return [Line(text: strings.inspectorGone, role: .muted)]
        }
        let status = Presentation.statuses(state, rows)[id] ?? .queue(transaction.state)
        let width = innerWidth(for: state.size)
        var lines = [
            Line(
                text: Presentation.title(state, product: transaction.productId) + " · "
                    + strings.status(status, wide: true),
                role: role(status) == .normal ? .title : role(status), wraps: false),
            Line(text: ""),
            Line(text: strings.inspectorTransaction, role: .title, wraps: false),
        ]
        lines += transactionFields(transaction, state).flatMap { inspectorField($0.0, $0.1, width: width) }
        lines += refundRequestFields(transaction, state, strings).flatMap { inspectorField($0.0, $0.1, width: width) }
        lines += [Line(text: ""), Line(text: strings.inspectorSubscription, role: .title, wraps: false)]
        lines += subscriptionLines(transaction, state, strings, width: width)
        return lines
    }

    /// `transactions --json`'s fields in its order, "—" for one it leaves out.
    static func transactionFields(_ transaction: Transaction, _ state: AppState) -> [(String, String?)] {
        let terms = transaction.terms
        let date = { (date: Date?) in date.map { iso8601($0, state) } }
        let error = transaction.error.map { error in
            "\(error.domain) \(error.code) \(error.name): \(error.text(in: state.language).message)"
        }
        let commitment = terms?.commitment.map {
            "\($0.progress), \($0.price.exactString) until \(iso8601($0.expirationDate, state))"
        }
        return [
            ("transactionId", transaction.id), ("originalTransactionId", transaction.originalId),
            ("productId", transaction.productId), ("account", transaction.payment.account),
            ("state", transaction.state.name), ("quantity", String(transaction.quantity)),
            ("purchaseDate", date(transaction.purchaseDate)), ("finished", String(transaction.finished)),
            ("finishedBy", transaction.finishedBy?.rawValue), ("orderId", transaction.payment.applicationUsername),
            ("appStoreOrderId", Presentation.appStoreOrderId(transaction)),
            ("error", error), ("price", terms?.price.exactString), ("currency", terms?.currency),
            ("expirationDate", date(terms?.expirationDate)), ("offerType", terms?.offer?.type.rawValue),
            ("offerId", terms?.offer?.id), ("offerPaymentMode", terms?.offer?.paymentMode.rawValue),
            ("revocationDate", date(terms?.revocation?.date)), ("revocationReason", terms?.revocation?.reason.name),
            ("transactionReason", terms.map { $0.isRenewal ? "renewal" : "purchase" }),
            ("failureContext", transaction.failureContext?.rawValue),
            ("isUpgraded", terms?.upgrade.map { _ in "true" }), ("upgradeRefund", terms?.upgrade?.refund.exactString),
            ("billingPlanType", terms?.billingPlan?.rawValue), ("commitmentInfo", commitment),
            ("ownershipType", terms?.ownership.rawValue),
        ]
    }

    /// A refund the customer asked for and the App Store has not decided: what the inspector adds
    /// while it waits, as Xcode's transaction manager shows a pending refund request.
    static func refundRequestFields(_ transaction: Transaction, _ state: AppState, _ strings: UIStrings)
        -> [(String, String?)]
    {
        guard let waiting = state.waitingRefund(transaction) else { return [] }
        return [
            ("refundRequest", strings.refundRequestWaiting), ("refundRequestReason", waiting.reason.rawValue),
            ("refundRequestDate", iso8601(waiting.requestedAt, state)),
        ]
    }

    /// The subscription's original id, the plan in force and its renewal info, while the
    /// signed-in account has it: another account's renewal info is not read.
    static func subscriptionLines(_ transaction: Transaction, _ state: AppState, _ strings: UIStrings, width: Int)
        -> [Line]
    {
        let product = state.catalog.product(id: transaction.productId)
        guard product?.type == .autoRenewable || transaction.terms?.expirationDate != nil else {
            return inspectorField("type", product?.type.label(in: state.language), width: width)
        }
        let account = transaction.payment.account
        guard let entitlement = Presentation.subscription(state, of: transaction), let renewal = entitlement.renewal
        else {
            return inspectorField("originalTransactionId", transaction.originalId, width: width)
                + [
                    Line(
                        text: strings.inspectorNoSubscription(account, signedIn: account == state.account.name),
                        role: .muted)
                ]
        }
        let commitment = renewal.commitment.map {
            "willAutoRenew \($0.willAutoRenew), \($0.autoRenewProductId), \($0.renewalBillingPlan.rawValue), "
                + "\($0.renewalPrice?.exactString ?? "—") at \(iso8601($0.renewalDate, state))"
        }
        let inForce = Presentation.title(state, product: entitlement.productId) + " (\(entitlement.productId))"
        let subscription: [(String, String?)] = [
            ("originalTransactionId", entitlement.originalTransactionId), ("productId", inForce),
            ("latestTransactionId", entitlement.transactionId),
            ("expirationDate", entitlement.expiresDate.map { iso8601($0, state) }),
            ("active", String(entitlement.isActive(at: state.now))),
        ]
        let renewalFields: [(String, String?)] = [
            ("willAutoRenew", String(renewal.willAutoRenew)), ("autoRenewProductId", renewal.autoRenewProductId),
            ("renewalBillingPlanType", renewal.renewalBillingPlan.rawValue),
            ("expirationReason", renewal.expirationReason?.name),
            ("isInBillingRetry", String(renewal.isInBillingRetry)),
            ("gracePeriodExpirationDate", renewal.gracePeriodExpirationDate.map { iso8601($0, state) }),
            ("priceIncreaseStatus", renewal.priceIncreaseStatus?.name),
            ("renewalPrice", renewal.renewalPrice?.exactString), ("commitmentInfo", commitment),
        ]
        return subscription.flatMap { inspectorField($0.0, $0.1, width: width) }
            + [Line(text: ""), Line(text: strings.inspectorRenewal, role: .title, wraps: false)]
            + renewalFields.flatMap { inspectorField($0.0, $0.1, width: width) }
    }

    /// A field's name and value, a value too long for the line continuing under itself.
    static func inspectorField(_ name: String, _ value: String?, width: Int) -> [Line] {
        let parts = View.wrappedLines(value ?? "—", width: max(8, width - inspectorKeyColumn))
        return parts.enumerated().map { index, part in
            let lead =
                index == 0
                ? CellWidth.pad(name, to: inspectorKeyColumn) : String(repeating: " ", count: inspectorKeyColumn)
            return Line(text: lead + part, role: value == nil ? .muted : .normal, wraps: false)
        }
    }

    /// Dates as the CLI's JSON writes them, in the screen's time zone.
    static func iso8601(_ date: Date, _ state: AppState) -> String {
        date.formatted(Date.ISO8601FormatStyle(timeZone: state.timeZone))
    }
}

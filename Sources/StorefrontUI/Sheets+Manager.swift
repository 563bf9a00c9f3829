import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// The transaction manager's table, and the inspector of one of its transactions.
extension Sheets {
    static func managerTitle(_ state: AppState, _ strings: UIStrings) -> String {
        state.managerView.allAccounts ? strings.managerTitleAllAccounts : strings.managerTitle
    }

    /// One row per transaction; in the all-accounts view each account's rows under its name.
    static func manager(_ state: AppState, _ strings: UIStrings, _ selection: Int) -> [Line] {
        let groups = Presentation.managerGroups(state)
        let rows = groups.flatMap { $0.transactions }
        guard !rows.isEmpty else { return [Line(text: strings.noTransactions, role: .muted)] }
        let statuses = Presentation.statuses(state, rows)
        var lines: [Line] = []
        var index = 0
        for group in groups where !group.transactions.isEmpty || !state.managerView.allAccounts {
            if state.managerView.allAccounts {
                let account = state.catalog.account(named: group.account)
                let heading = strings.managerAccount(
                    account, family: state.family(of: group.account), name: group.account,
                    signedIn: group.account == state.account.name)
                lines.append(Line(text: heading, role: .title, wraps: false))
            }
            for transaction in group.transactions {
                let status = statuses[transaction.id] ?? .queue(transaction.state)
                lines.append(managerRow(transaction, status, state, strings, selected: index == selection))
                index += 1
            }
        }
        return lines
    }

    /// The id, the status, the product, the quantity and the time, then what else fits: the
    /// commitment's place, finished or not, a failure, the App Store order id.
    static func managerRow(
        _ transaction: Transaction, _ status: TransactionStatus, _ state: AppState, _ strings: UIStrings,
        selected: Bool
    ) -> Line {
        let wide = state.size.columns >= 120
        // The date where the screen has room for it; the time of day alone on narrower ones.
        let time = Date.FormatStyle(
            date: .numeric, time: .standard, locale: Locale(identifier: state.locale), timeZone: state.timeZone)
        let when =
            state.size.columns >= 160
            ? transaction.purchaseDate.formatted(time)
            : View.clock(transaction.purchaseDate, state.timeZone, locale: state.locale)
        let title = Presentation.title(state, product: transaction.productId)
        // A failure the store knows more of is named by that, not by the code the app saw.
        let failure =
            transaction.failureContext.map(strings.failureContextShort)
            ?? transaction.error.map { "\($0.code) \($0.name)" }
        // The order id the customer's receipt email shows, what support looks up: where there is room.
        let order = wide ? Presentation.appStoreOrderId(transaction).map(strings.orderIdFlag) : nil
        // A monthly payment's place in its commitment comes first: "4/12" fits a narrow screen.
        let commitment = transaction.terms?.commitment.map { strings.commitmentFlag($0, wide: wide) }
        let flags = [
            commitment, strings.finishedFlag(transaction.finished, by: transaction.finishedBy), failure, order,
        ]
        .compactMap { $0 }
        // The status column takes a cell from the title's where the screen is narrow: "interrupted".
        let statusText = CellWidth.pad(strings.status(status, wide: wide), to: wide ? 16 : 11)
        let titleText = CellWidth.pad(title, to: wide ? 16 : 15)
        return Line(
            text:
                "\(transaction.id)  \(statusText) \(titleText) ×\(transaction.quantity)  \(when)  \(flags.joined(separator: " · "))",
            role: role(status), selected: selected, wraps: false)
    }

    /// Failures in red, what waits for someone in yellow, what has ended muted.
    static func role(_ status: TransactionStatus) -> Role {
        switch status {
        case .queue(.failed): .error
        case .queue(.deferred), .billingRetry, .gracePeriod, .interrupted, .refundRequested: .warning
        case .refunded, .revoked, .upgraded, .expired: .muted
        default: .normal
        }
    }
}

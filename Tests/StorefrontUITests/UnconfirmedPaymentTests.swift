import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// A remote store that goes away in the middle of a purchase: the payment may or may not have
/// gone through. The screen says so in the banner, `p` and the buy sheet agree on it, nothing
/// spins forever, and when the store answers again the payment is found or known not charged.
/// Before, the spinner ran on with no banner while `p` said nothing was pending.
@Suite struct UnconfirmedPaymentTests {
    typealias F = UIFixture
    static let away = "store unreachable at http://127.0.0.1:9: connection refused"
    static let orderId = "order-7"

    static func status(_ text: String, _ level: StatusMessage.Level = .info) -> StatusMessage {
        StatusMessage(text: text, level: level, expires: F.now.addingTimeInterval(4))
    }

    static func snapshot(_ history: [Transaction]) -> Action {
        .snapshot(
            StoreSnapshot(history: history, pending: [], balances: [:], entitlements: [], controls: TestControls()))
    }

    /// A payment whose add never got an answer.
    func unanswered() -> ReducerTestStore {
        var store = ReducerTestStore(F.state(TerminalSize(columns: 120, rows: 30)))
        store.send(.paymentUnconfirmed(productId: F.gems, quantity: 2, orderId: Self.orderId, reason: Self.away)) {
            $0.storeProblem = Self.away
            $0.unconfirmed = [
                UnconfirmedPayment(
                    productId: F.gems, quantity: 2, orderId: Self.orderId, transactionId: nil, since: F.now)
            ]
            $0.status = Self.status(
                "100 Gems: the store went away before it answered; the payment may or may not have gone through.",
                .warning)
        }
        return store
    }

    @Test func anUnansweredPaymentIsInTheBannerThePendingListAndTheBuySheet() {
        var store = unanswered()
        let screen = View.render(store.state).text
        #expect(
            screen.contains(
                "⚠ 1 payment may or may not have gone through — checked when the store is back; do not pay again"),
            "\(screen)")
        store.press(.character("p")) { $0.sheet = .pendingPayments }
        #expect(View.render(store.state).text.contains("the store went away before it answered"))
        store.press(.escape) { $0.sheet = nil }
        store.press(.enter) {
            $0.sheet = .confirmPurchase(ConfirmPurchase(productId: F.gems, quantity: 1, pendingIds: [Self.orderId]))
        }
    }

    @Test func aPaymentThatArrivedGoesOnWhenTheStoreIsBack() {
        var store = unanswered()
        let arrived = Transaction(
            id: "2000000000000005", originalId: "2000000000000005",
            payment: Payment(productId: F.gems, quantity: 2, applicationUsername: Self.orderId, account: "alice"),
            state: .purchased, error: nil, purchaseDate: F.now, finished: false)
        store.send(Self.snapshot([arrived])) {
            $0.storeProblem = nil
            $0.unconfirmed = []
            $0.history = [arrived]
        }
    }

    @Test func aPaymentThatNeverArrivedIsSaidNotCharged() {
        var store = unanswered()
        store.send(Self.snapshot([])) {
            $0.storeProblem = nil
            $0.unconfirmed = []
            $0.status = Self.status("100 Gems: the payment never reached the store; you were not charged.")
        }
        #expect(!View.render(store.state).text.contains("may or may not"))
    }

    @Test func aPurchaseInFlightWhenTheStoreGoesAwayIsHeldNotSpun() {
        var store = ReducerTestStore(F.state(TerminalSize(columns: 120, rows: 30)))
        let purchasing = F.transaction("2000000000000006", F.removeAds, .purchasing)
        store.send(.paymentAdded(purchasing)) {
            $0.inFlight = [purchasing.id]
            $0.history = [purchasing]
            $0.progress = [purchasing.id: .purchasing]
        }
        store.send(.refreshFailed(Self.away)) {
            $0.storeProblem = Self.away
            $0.unconfirmed = [
                UnconfirmedPayment(
                    productId: F.removeAds, quantity: 1, orderId: "order-2000000000000006",
                    transactionId: purchasing.id, since: F.now)
            ]
        }
        // Again: held once.
        store.send(.refreshFailed(Self.away))
        let screen = View.render(store.state).text
        #expect(screen.contains("unconfirmed · store away"), "\(screen)")
        #expect(screen.contains("1 payment may or may not have gone through"))
        store.press(.character("p")) { $0.sheet = .pendingPayments }
        #expect(View.render(store.state).text.contains("2000000000000006"))
        store.press(.escape) { $0.sheet = nil }
        store.send(Self.snapshot([purchasing])) {
            $0.storeProblem = nil
            $0.unconfirmed = []
        }
    }
}

import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// A refund asked for outside this terminal (`manage request-refund`, another client of a served
/// store) reaches the manager on the store's list of transactions, not through this session.
@Suite struct RefundRequestedElsewhereTests {
    typealias F = UIFixture
    typealias M = TransactionManagerTests

    @Test func theManagerShowsARequestItDidNotMakeAndDecidesIt() {
        var state = F.state(M.large)
        var monthly = M.transaction(1, F.monthly, terms: M.terms(expires: 60))
        monthly.refundRequest = WaitingRefund(reason: .fulfillmentIssue, requestedAt: F.now.addingTimeInterval(-3600))
        state.history = [monthly]
        #expect(state.refundRequests.isEmpty)
        _ = F.keys(&state, .character("m"))
        var text = Golden.text(state)
        #expect(text.contains("\(monthly.id)  refund asked"), "\(text)")
        Golden.check("manager-refund-requested-elsewhere-120x40", state)
        _ = F.keys(&state, .enter)
        text = Golden.text(state)
        for (name, value) in [
            ("refundRequest", "waiting for the App Store"), ("refundRequestReason", "fulfillment-issue"),
            ("refundRequestDate", "2027-01-15T07:00:00Z"),
        ] {
            #expect(text.contains(CellWidth.pad(name, to: Sheets.inspectorKeyColumn) + value), "\(text)")
        }
        // Approved for the reason the customer gave: a fulfillment issue is the app's.
        let effects = F.keys(&state, .escape, .character("Y"))
        #expect(effects.contains(.manage(.refund(monthly.id, reason: .developerIssue))), "\(effects)")
    }

    /// Asked for here and declined from the CLI: once the store has reported the request, its
    /// "refund asked" ends with the store's list, not with the session.
    @Test func aRequestMadeHereAndDecidedElsewhereEnds() {
        var state = F.state(M.large)
        var monthly = M.transaction(1, F.monthly, terms: M.terms(expires: 60))
        state.history = [monthly]
        state.refundRequests[monthly.id] = WaitingRefund(reason: .fulfillmentIssue, requestedAt: F.now)
        _ = F.keys(&state, .character("m"))
        #expect(Golden.text(state).contains("\(monthly.id)  refund asked"))
        let asked = monthly
        monthly.refundRequest = WaitingRefund(reason: .fulfillmentIssue, requestedAt: F.now)
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(
                    history: [monthly], pending: [], balances: [:], entitlements: [], controls: state.controls)))
        #expect(state.refundRequests.isEmpty, "the store's report takes over")
        #expect(Golden.text(state).contains("\(monthly.id)  refund asked"))
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(history: [asked], pending: [], balances: [:], entitlements: [], controls: state.controls))
        )
        let text = Golden.text(state)
        #expect(!text.contains("refund asked"), "declined from the CLI: \(text)")
    }
}

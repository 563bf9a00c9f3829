import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The crash screen: the app is down until launched again, as it was (it crashes again) or as
/// the fixed build; a snapshot meanwhile does not run the app by itself.
@Suite struct CrashScreenTests {
    typealias F = UIFixture
    static let crash = AppCrashReport(
        transactionId: "2000000000000001", productId: "com.example.storefront.gems.1200", crashes: 2)

    func crashed() -> AppState {
        var state = F.state(TerminalSize(columns: 100, rows: 30))
        #expect(Reducer.reduce(&state, .appCrashed(Self.crash)) == [.refresh(account: "alice")])
        return state
    }

    @Test func theSheetSaysWhatCrashedAndHowToGoOn() {
        let state = crashed()
        #expect(state.sheet == .appCrashed(Self.crash))
        #expect(state.progress["2000000000000001"] == .crashed)
        let screen = View.render(state).text
        for text in [
            "The app crashed", "Delivering 1,200 Gems (transaction 2000000000000001) crashed the app: crash 2.",
            "Enter launch again  x fixed build  m transactions  q quit",
        ] {
            #expect(screen.contains(text), "\(screen)")
        }
        #expect(
            StoreEventMarkers.markers(for: .appCrashed(Self.crash)) == [
                "app crashed 2000000000000001 com.example.storefront.gems.1200"
            ])
    }

    @Test func aSnapshotLeavesTheCrashedTransactionUntilRelaunch() {
        var state = crashed()
        let pending = PendingPayment(
            transactionId: "2000000000000001", productId: Self.crash.productId, quantity: 1, state: .purchased,
            since: F.now, reason: .unfinished)
        let snapshot = StoreSnapshot(
            history: [], pending: [pending], balances: [:], entitlements: [], controls: TestControls())
        #expect(Reducer.reduce(&state, .snapshot(snapshot)) == [])
    }

    @Test func enterLaunchesAgainAndXInstallsTheFixedBuildFirst() {
        var again = crashed()
        #expect(
            Reducer.reduce(&again, .key(.enter)) == [.replayUnfinished(account: "alice"), .refresh(account: "alice")])
        #expect(again.sheet == nil)
        var fixed = crashed()
        #expect(
            Reducer.reduce(&fixed, .key(.character("x"))) == [
                .fixApp, .replayUnfinished(account: "alice"), .refresh(account: "alice"),
            ])
        _ = Reducer.reduce(&fixed, .appFixed)
        #expect(fixed.status?.text == "Fixed build installed: delivering no longer crashes the app.")
        var managed = crashed()
        #expect(Reducer.reduce(&managed, .key(.character("m"))) == [])
        #expect(managed.sheet == .transactionManager(selection: 0))
    }
}

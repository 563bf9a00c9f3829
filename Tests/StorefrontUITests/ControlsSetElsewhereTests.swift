import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The storefront and account controls set outside the terminal (`storefront manage set`, the
/// admin API) reach a running session with the next snapshot, as a running app hears of a
/// storefront change; a session opened with its own account keeps it until the control changes.
@Suite struct ControlsSetElsewhereTests {
    typealias F = UIFixture
    typealias R = ReducerTests

    static func snapshot(_ controls: TestControls) -> Action {
        .snapshot(StoreSnapshot(history: [], pending: [], balances: [:], entitlements: [], controls: controls))
    }

    @Test func aStorefrontSetElsewhereRepricesTheList() {
        var store = ReducerTestStore(F.state())
        var controls = TestControls()
        controls.storefront = "JPN"
        store.send(Self.snapshot(controls), effects: [.loadProducts(storefront: "JPN"), .refresh(account: "alice")]) {
            $0.storefront = R.storefront("JPN")
            $0.controls = controls
            $0.status = R.status("Storefront JPN: prices in JPY.")
            $0.list.reprice(for: $0.pricing)
        }
        #expect(store.state.list.displayPrices[0] == "¥160")
        // Emptied elsewhere: the account's own storefront again.
        store.send(
            Self.snapshot(TestControls()), effects: [.loadProducts(storefront: "USA"), .refresh(account: "alice")]
        ) {
            $0.storefront = R.storefront("USA")
            $0.controls = TestControls()
            $0.status = R.status("Storefront USA: prices in USD.")
            $0.list.reprice(for: $0.pricing)
        }
    }

    @Test func anAccountSetElsewhereSignsTheSessionIn() {
        var store = ReducerTestStore(F.state())
        var controls = TestControls()
        controls.account = "kenji"
        store.send(
            Self.snapshot(controls),
            effects: [
                .replayUnfinished(account: "kenji"), .loadProducts(storefront: "JPN"), .refresh(account: "kenji"),
                .loadAppTransaction(account: "kenji"),
            ]
        ) {
            $0.account = R.account("kenji")
            $0.storefront = R.storefront("JPN")
            $0.controls = controls
            $0.status = R.status("Signed in as kenji.")
            $0.list.reprice(for: $0.pricing)
        }
    }

    @Test func aSessionsOwnAccountStaysWhileTheControlDoesNotChange() {
        var state = F.state()
        var controls = TestControls()
        controls.account = "kenji"
        state.controls = controls  // the store's controls when the session opened as alice
        var store = ReducerTestStore(state)
        store.send(Self.snapshot(controls))
        #expect(store.state.account.name == "alice")
    }
}

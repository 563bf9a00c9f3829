import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// Ctrl+S saves the screen as it is, whatever is open, and says where it went. The reducer only
/// asks; the runner draws the screen the state shows then (`EffectRunnerTests`).
@Suite struct ScreenshotKeyTests {
    typealias F = UIFixture

    @Test func ctrlSAsksToSaveTheScreenAndChangesNothing() {
        var store = ReducerTestStore(F.state())
        store.press(.character("?")) { $0.sheet = .help(scroll: 0) }
        store.press(.control("s"), effects: [.saveScreen])
    }

    @Test func itWorksWhileFilteringAndOnAScreenTooSmall() {
        var store = ReducerTestStore(F.state())
        store.press(.character("/")) { $0.list.filtering = true }
        store.press(.control("s"), effects: [.saveScreen])
        store.send(.resized(TerminalSize(columns: 10, rows: 3))) { $0.size = TerminalSize(columns: 10, rows: 3) }
        store.press(.control("s"), effects: [.saveScreen])
    }

    @Test func theStatusSaysWhereTheScreenWentOrWhyNot() {
        var store = ReducerTestStore(F.state())
        store.send(.screenSaved("/tmp/s/screen-20261125-060512")) {
            $0.status = ReducerTests.status("Screen saved: screen-20261125-060512.{txt,ansi,svg} in /tmp/s")
        }
        store.send(.screenNotSaved("/tmp/s: no space left")) {
            $0.status = ReducerTests.status("Screen not saved: /tmp/s: no space left", .error)
        }
    }
}

/// What a recording marks: each store event once, in the words StoreKit uses.
@Suite struct StoreEventMarkerTests {
    typealias F = UIFixture

    @Test func eachStepOfAPurchaseIsMarkedOnce() {
        let transaction = F.transaction("2000000000000003", "com.example.storefront.gems.100", .purchasing)
        #expect(
            StoreEventMarkers.markers(for: .paymentAdded(transaction)) == [
                "purchasing 2000000000000003 com.example.storefront.gems.100"
            ])
        #expect(
            StoreEventMarkers.markers(
                for: .transactionUpdate(TransactionUpdate(transaction: transaction, receipt: nil))
            ).isEmpty)
        var purchased = transaction
        purchased.state = .purchased
        #expect(
            StoreEventMarkers.markers(for: .transactionUpdate(TransactionUpdate(transaction: purchased, receipt: nil)))
                == ["purchased 2000000000000003"])
        #expect(
            StoreEventMarkers.markers(
                for: .appSteps([
                    .delivered(transactionId: "2000000000000003", firstTime: true),
                    .verified(transactionId: "2000000000000003"),
                    .finished(transactionId: "2000000000000003"),
                ]))
                == ["delivered 2000000000000003", "verified 2000000000000003", "finished 2000000000000003"])
        #expect(StoreEventMarkers.markers(for: .key(.enter)).isEmpty)
    }
}

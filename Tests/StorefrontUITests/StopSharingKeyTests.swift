import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// `S` in the transaction manager stops sharing the selected purchase with the family.
@Suite struct StopSharingKeyTests {
    typealias F = UIFixture

    @Test func sInTheManagerStopsSharingTheSelectedPurchase() {
        var state = F.state()
        state.history = [
            F.transaction("2000000000000001", "com.example.storefront.theme.dark", .purchased, finished: true)
        ]
        state.sheet = .transactionManager(selection: 0)
        #expect(
            Reducer.reduce(&state, .key(.character("S"))) == [
                .manageAndReport(.stopSharing("2000000000000001")), .refresh(account: "alice"),
            ])
        #expect(KeyBindings.command(for: .character("S"), in: .manager) == .stopSharing)
        #expect(KeyBindings.command(for: .character("S"), in: .main) == nil, "only the manager has it")
    }
}

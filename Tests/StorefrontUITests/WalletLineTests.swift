import CellGrid
import Foundation
import StoreKitModel
import StorefrontUI
import Testing

/// The wallet line writes counts as the catalog's titles do.
@Suite struct WalletLineTests {
    typealias F = UIFixture

    @Test func countsAreGroupedAsTheLocaleWritesThem() {
        var state = F.state(TerminalSize(columns: 100, rows: 30))
        state.balances = ["gems": 1_200]
        #expect(Golden.text(state).contains("Wallet: 1,200 gems"))
    }
}

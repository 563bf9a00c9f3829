import CellGrid
import Foundation
import StoreCore
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

    /// Where everything does not fit, the items owned are counted so a subscription still shows.
    @Test func aSubscriptionStillShowsWhenTheWalletIsFull() {
        var state = F.state(TerminalSize(columns: 80, rows: 24))
        state.balances = ["gems": 1_200]
        let owned = [
            "com.example.storefront.removeads", "com.example.storefront.theme.dark",
            "com.example.storefront.pro.lifetime",
        ]
        state.entitlements =
            owned.enumerated().map { index, id in
                Entitlement(
                    productId: id, type: .nonConsumable, transactionId: "200000000000000\(index)",
                    originalTransactionId: "200000000000000\(index)", purchaseDate: F.now, expiresDate: nil,
                    willAutoRenew: false)
            } + [
                Entitlement(
                    productId: F.plusMonthly, type: .autoRenewable, transactionId: "2000000000000009",
                    originalTransactionId: "2000000000000009", purchaseDate: F.now,
                    expiresDate: F.now.addingTimeInterval(20 * 86_400), willAutoRenew: true,
                    renewal: RenewalInfo(willAutoRenew: true, autoRenewProductId: F.plusMonthly))
            ]
        let line = Golden.text(state).split(separator: "\n").first { $0.hasPrefix("Wallet:") } ?? ""
        #expect(line.contains("Owned: 3 items") && line.contains("Premium Plus Monthly renews in 20 d"), "\(line)")
    }
}

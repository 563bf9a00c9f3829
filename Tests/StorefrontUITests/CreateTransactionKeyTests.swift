import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// `B` in the transaction manager: Xcode 26's "create a transaction" made outside the device,
/// through a form for the product, the date and auto-renew.
@Suite struct CreateTransactionKeyTests {
    typealias F = UIFixture
    static let gems550 = "com.example.storefront.gems.550"

    /// The form as `B` opens it on the first product, a month before the fixture's now, then changed.
    static func form(_ change: (inout CreateTransactionForm) -> Void = { _ in }) -> Sheet {
        var form = CreateTransactionForm(productId: F.gems, dateText: "2026-12-15T08:00:00Z", managerSelection: 0)
        change(&form)
        return .createTransaction(form)
    }

    static func managerStore() -> ReducerTestStore {
        var store = ReducerTestStore(F.state())
        store.arrange { $0.sheet = .transactionManager(selection: 0) }
        return store
    }

    @Test func bOpensTheFormAndEnterCreatesForTheSignedInAccount() throws {
        var store = Self.managerStore()
        store.press(.character("B")) { $0.sheet = Self.form() }
        store.press(.right) { $0.sheet = Self.form { $0.productId = Self.gems550 } }
        store.press(.down) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .date
            }
        }
        store.press(.left) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .date
                $0.dateText = "2026-11-15T08:00:00Z"
            }
        }
        store.press(.backspace) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .date
                $0.dateText = "2026-11-15T08:00:00"
            }
        }
        store.press(.character("Z")) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .date
                $0.dateText = "2026-11-15T08:00:00Z"
            }
        }
        store.press(.down) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .autoRenew
                $0.dateText = "2026-11-15T08:00:00Z"
            }
        }
        store.press(.character(" ")) {
            $0.sheet = Self.form {
                $0.productId = Self.gems550
                $0.field = .autoRenew
                $0.dateText = "2026-11-15T08:00:00Z"
                $0.autoRenew = false
            }
        }
        let creation = TransactionCreation(
            productId: Self.gems550, account: "alice", purchaseDate: Date(timeIntervalSince1970: 1_794_729_600),
            autoRenew: false)
        store.press(.enter, effects: [.manageAndReport(.createTransaction(creation)), .refresh(account: "alice")]) {
            $0.sheet = .transactionManager(selection: 0)
        }
        #expect(KeyBindings.command(for: .character("B"), in: .manager) == .createTransaction)
        #expect(KeyBindings.command(for: .character("B"), in: .main) == nil, "only the manager has it")
    }

    @Test func aDateInTheFutureOrNoDateIsSaidAndTheFormKept() {
        var store = Self.managerStore()
        store.press(.character("B")) { $0.sheet = Self.form() }
        store.arrange { $0.sheet = Self.form { $0.dateText = "2027-02-01T00:00:00Z" } }
        store.press(.enter) {
            $0.status = StatusMessage(
                text:
                    "2027-02-01T00:00:00Z is in the future: a transaction made outside the device was bought before now.",
                level: .warning, expires: F.now.addingTimeInterval(Reducer.statusSeconds))
        }
        store.arrange { $0.sheet = Self.form { $0.dateText = "soon" } }
        store.press(.enter) {
            $0.status = StatusMessage(
                text: "soon is not a date: type one such as 2026-01-15T10:00:00Z, or move it with ←/→.",
                level: .warning, expires: F.now.addingTimeInterval(Reducer.statusSeconds))
        }
        store.press(.escape) { $0.sheet = .transactionManager(selection: 0) }
    }

    @Test func theFormShowsEachFieldWithTheOneTheArrowsChangeMarked() {
        var state = F.state(TerminalSize(columns: 100, rows: 30))
        state.sheet = Self.form { $0.field = .date }
        let screen = View.render(state).rows.joined(separator: "\n")
        #expect(screen.contains("Create a transaction made outside the device"))
        #expect(screen.contains("  Product     100 Gems  com.example.storefront.gems.100"))
        #expect(screen.contains("> Bought on   2026-12-15T08:00:00Z▏"))
        #expect(screen.contains("  Auto-renew  on"))
        #expect(screen.contains("↑/↓ field  ←/→ change  Enter create  Esc back"))
    }
}

import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The sandbox's account tools in the transaction manager: `H` clears the selected row's
/// account's purchase history (twice), `M` moves that account to another family.
@Suite struct ManagerAccountToolsTests {
    typealias F = UIFixture
    typealias M = TransactionManagerTests

    static func everyAccount(_ transactions: [Transaction]) -> AppState {
        var state = F.state(M.large)
        F.keys(&state, .character("m"), .character("A"))
        _ = Reducer.reduce(&state, .everyAccountLoaded(transactions, families: M.families(state)))
        return state
    }

    @Test func clearingAnAccountsHistoryAsksTwiceForThatAccount() {
        let kenjis = M.transaction(2, F.gems, account: "kenji", terms: M.terms("0.99"))
        var state = Self.everyAccount([kenjis])
        #expect(F.keys(&state, .character("H")).isEmpty)
        #expect(state.status?.text == "Press H again to clear kenji's purchase history.")
        #expect(
            F.keys(&state, .character("H")) == [
                .manageAndReport(.clearAccount("kenji")), .refresh(account: "alice"), .loadEveryAccount,
            ])
        // Another key between the presses disarms it.
        F.keys(&state, .character("H"), .down)
        #expect(F.keys(&state, .character("H")).isEmpty)
    }

    @Test func anAccountMovesToTheFamilyPicked() {
        let kenjis = M.transaction(2, F.gems, account: "kenji", terms: M.terms("0.99"))
        var state = Self.everyAccount([kenjis])
        F.keys(&state, .character("M"))
        let choices = Presentation.familyChoices(state)
        #expect(choices.last == .some(nil), "no family is the last choice")
        guard case .familyPicker(let picker)? = state.sheet, let family = choices.first ?? nil else {
            Issue.record("no family picker: \(String(describing: state.sheet))")
            return
        }
        #expect(picker.account == "kenji" && picker.selection == choices.count - 1, "kenji is in no family now")
        let text = Golden.text(state)
        #expect(text.contains("Family of kenji") && text.contains("no family  (now)"), "\(text)")
        F.keys(&state, .character("g"))
        #expect(
            F.keys(&state, .enter) == [
                .manageAndReport(.setFamily(account: "kenji", family: family)), .refresh(account: "alice"),
                .loadEveryAccount,
            ])
        #expect(state.sheet == .transactionManager(selection: 0))
        // Esc goes back to the manager without a move; the family it is in changes nothing.
        F.keys(&state, .character("M"))
        #expect(F.keys(&state, .escape).isEmpty && state.sheet == .transactionManager(selection: 0))
        F.keys(&state, .character("M"))
        #expect(F.keys(&state, .enter).isEmpty)
    }
}

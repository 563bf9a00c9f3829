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
        let choices = Presentation.pickerChoices(state, .family(account: "kenji"))
        #expect(choices.last == .some(nil), "no family is the last choice")
        guard case .managerPicker(let picker)? = state.sheet, let family = choices.first ?? nil else {
            Issue.record("no family picker: \(String(describing: state.sheet))")
            return
        }
        #expect(picker.purpose == .family(account: "kenji"))
        #expect(picker.selection == choices.count - 1, "kenji is in no family now")
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

    /// `G`: the purchase is assigned to the account picked, as an organization assigns a seat;
    /// the purchaser is not among the choices.
    @Test func aPurchaseIsAssignedToTheAccountPicked() {
        let kenjis = M.transaction(2, F.removeAds, account: "kenji", terms: M.terms("2.99"))
        var state = Self.everyAccount([kenjis])
        F.keys(&state, .character("G"))
        let choices = Presentation.pickerChoices(state, .assign(transactionId: kenjis.id, purchaser: "kenji"))
        #expect(!choices.contains("kenji") && choices.contains("lena"))
        #expect(Golden.text(state).contains("Assign \(kenjis.id) to"))
        let lena = choices.firstIndex(of: "lena") ?? 0
        for _ in 0..<lena { F.keys(&state, .down) }
        #expect(
            F.keys(&state, .enter) == [
                .manageAndReport(.assign(kenjis.id, account: "lena")), .refresh(account: "alice"), .loadEveryAccount,
            ])
        #expect(state.sheet == .transactionManager(selection: 0))
    }
}

import CellGrid
import Foundation
import StoreCore
import StoreKitModel

/// `B` in the transaction manager: Xcode 26's "create a transaction" made outside the device. The
/// form asks for the product and the date; the store adds what followed from the date, and the
/// app hears the purchase and its renewals through its updates.
extension Reducer {
    static func openCreateForm(_ state: inout AppState, managerSelection: Int) {
        let products = creatableProducts(state)
        guard let first = products.first else { return }
        let productId = state.selectedProduct.map(\.id).flatMap { id in products.contains { $0.id == id } ? id : nil }
        state.sheet = .createTransaction(
            CreateTransactionForm(
                productId: productId ?? first.id,
                dateText: CreateTransactionForm.dateText("", movedBy: -1, fallback: state.now),
                managerSelection: managerSelection))
    }

    /// The catalog's products a tester may create a purchase of, in its order.
    static func creatableProducts(_ state: AppState) -> [Product] {
        state.catalog.products.filter { !$0.removed }
    }

    static func createFormKey(_ state: inout AppState, _ key: Key, _ form: CreateTransactionForm) -> [Effect] {
        var form = form
        switch key {
        case .up, .down, .tab:
            let fields = CreateTransactionForm.Field.allCases
            let step = key == .up ? fields.count - 1 : 1
            form.field = fields[(form.field.rawValue + step) % fields.count]
        case .left, .right:
            change(&form, by: key == .left ? -1 : 1, state)
        case .character(" ") where form.field == .autoRenew:
            form.autoRenew.toggle()
        case .character(let character)
        where form.field == .date && CreateTransactionForm.accepts(character)
            && form.dateText.count < CreateTransactionForm.maxDateLength:
            form.dateText.append(character)
        case .backspace, .control("h"):
            guard form.field == .date else { break }
            form.dateText = String(form.dateText.dropLast())
        case .enter:
            return submit(&state, form)
        case .escape:
            backToManager(&state, form)
            return []
        case .control("c"):
            return quit(&state)
        default:
            break
        }
        state.sheet = .createTransaction(form)
        return []
    }

    /// ←/→: the next product, a month earlier or later, auto-renew on or off.
    static func change(_ form: inout CreateTransactionForm, by step: Int, _ state: AppState) {
        switch form.field {
        case .product:
            let products = creatableProducts(state)
            guard !products.isEmpty else { return }
            let index = products.firstIndex { $0.id == form.productId } ?? 0
            form.productId = products[(index + step + products.count) % products.count].id
        case .date:
            form.dateText = CreateTransactionForm.dateText(form.dateText, movedBy: step, fallback: state.now)
        case .autoRenew:
            form.autoRenew.toggle()
        }
    }

    /// The manager again, on the row it was on while that row is still there.
    static func backToManager(_ state: inout AppState, _ form: CreateTransactionForm) {
        state.sheet = .transactionManager(selection: form.managerSelection)
        keepManagerSelection(&state)
    }

    /// Enter: a date the store would refuse is said here, the form kept to correct it.
    static func submit(_ state: inout AppState, _ form: CreateTransactionForm) -> [Effect] {
        let strings = UIStrings(state.language)
        guard let date = TransactionCreation.date(from: form.dateText) else {
            say(&state, strings.notADate(form.dateText), .warning)
            state.sheet = .createTransaction(form)
            return []
        }
        guard date <= state.now else {
            say(&state, strings.dateInTheFuture(form.dateText), .warning)
            state.sheet = .createTransaction(form)
            return []
        }
        backToManager(&state, form)
        let creation = TransactionCreation(
            productId: form.productId, account: state.account.name, purchaseDate: date, autoRenew: form.autoRenew)
        return manage(state, .createTransaction(creation))
    }
}

import CellGrid
import StoreCore
import StoreKitModel

/// The form of a transaction made outside the device: each field on a line, the one the arrows
/// change marked.
extension Sheets {
    static func createForm(_ form: CreateTransactionForm, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let product =
            state.catalog.product(id: form.productId).map { "\($0.title.text(in: state.language))  \($0.id)" }
            ?? form.productId
        let marker = { (field: CreateTransactionForm.Field) in form.field == field ? "> " : "  " }
        let role = { (field: CreateTransactionForm.Field) in form.field == field ? Role.title : Role.normal }
        let cursor = form.field == .date ? (state.asciiOnly ? "_" : "▏") : ""
        return [
            Line(text: "  " + field(strings.accountLabel, state.account.name), wraps: false),
            Line(text: marker(.product) + field(strings.productLabel, product), role: role(.product), wraps: false),
            Line(
                text: marker(.date) + field(strings.boughtOnLabel, form.dateText + cursor), role: role(.date),
                wraps: false),
            Line(
                text: marker(.autoRenew) + field(strings.autoRenewLabel, strings.onOff(form.autoRenew)),
                role: role(.autoRenew), wraps: false),
            Line(text: ""),
            Line(text: strings.createExplanation, role: .muted),
        ]
    }
}

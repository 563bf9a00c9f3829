import StoreCore
import StoreKitModel

/// What the state's ids read as, and which of its entitlements a sheet lists: shared by the view,
/// which draws them, and the reducer, whose messages name the same products and whose keys move
/// through the same list, so the two cannot drift.
enum Presentation {
    /// A product's title in the language shown; its id when the catalog does not have it.
    static func title(_ state: AppState, product id: String) -> String {
        state.catalog.product(id: id)?.title.text(in: state.language) ?? id
    }

    /// The title of the product a transaction in the history is for; an empty title when the
    /// history does not hold the transaction.
    static func title(_ state: AppState, transaction id: String) -> String {
        title(state, product: productId(state, transaction: id) ?? "")
    }

    /// The product a transaction in the history is for.
    static func productId(_ state: AppState, transaction id: String) -> String? {
        state.history.first { $0.id == id }?.productId
    }

    /// The account's auto-renewable subscriptions, as the manage-subscriptions sheet lists them.
    static func subscriptions(_ state: AppState) -> [Entitlement] {
        state.entitlements.filter { $0.type == .autoRenewable }
    }
}

import Foundation
import ServerRecords
import StoreCore
import StoreKitModel

extension TransactionSigner {
    /// The JWS a client reads for `transaction`: purchased and restored ones are signed, at the
    /// time they last changed; any other state has none. `details` are the transaction's now.
    public func clientForm(
        of transaction: Transaction, details current: TransactionDetails?, catalog: Catalog,
        environment: StoreEnvironment
    ) -> String? {
        guard transaction.state == .purchased || transaction.state == .restored else { return nil }
        let shown = Self.shownDetails(of: transaction, current: current)
        return signOnce(
            Self.payload(
                for: transaction, details: shown, catalog: catalog, environment: environment,
                signedAt: transaction.modifiedDate(shown)))
    }

    /// The details a client is shown: a journaled snapshot carries its own terms (a purchase read
    /// after its refund is still the purchase, and the refund its own update).
    public static func shownDetails(of transaction: Transaction, current: TransactionDetails?) -> TransactionDetails? {
        transaction.terms.flatMap { terms in current.map { $0.applying(terms) } } ?? current
    }
}

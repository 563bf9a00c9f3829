import StoreCore
import StoreKitModel

/// The store events a recording marks, one short line each ("purchased 2000000000000003"), in
/// the order the UI learns them: what a viewer jumps between in `asciinema play`, and what a
/// test finds in a `.cast` without reading the screens.
public enum StoreEventMarkers {
    public static func markers(for action: Action) -> [String] {
        switch action {
        case .paymentAdded(let transaction):
            ["purchasing \(transaction.id) \(transaction.productId)"]
        case .transactionUpdate(let update):
            // A payment's first update (purchasing) was marked when it was added.
            update.transaction.state == .purchasing ? [] : ["\(update.transaction.state.name) \(update.transaction.id)"]
        case .appSteps(let steps):
            steps.map(marker)
        case .appCrashed(let crash):
            ["app crashed \(crash.transactionId) \(crash.productId)"]
        // The products request answered: the list takes keys from here on (`play` waits for it).
        case .productsLoaded: ["products loaded"]
        case .productsFailed: ["products failed"]
        case .restoreFinished(let result):
            switch result {
            case .nothing: ["restore found nothing"]
            case .restored(let products): ["restored \(products.joined(separator: " "))"]
            case .failed(let error): ["restore failed \(error.name)"]
            }
        default:
            []
        }
    }

    private static func marker(_ step: AppStep) -> String {
        switch step {
        case .delivered(let id, let firstTime): firstTime ? "delivered \(id)" : "delivered again \(id)"
        case .orderMatched(let id, let orderId): "order matched \(id) \(orderId)"
        case .verified(let id): "verified \(id)"
        case .verificationRejected(let id, _): "verification rejected \(id)"
        case .verificationDeferred(let id, _, _): "verification deferred \(id)"
        case .deliveredElsewhere(let id): "delivered elsewhere \(id)"
        case .finished(let id): "finished \(id)"
        case .waitingForApproval(let id): "waiting for approval \(id)"
        case .revoked(let id, _, _): "revoked \(id)"
        case .reinstated(let id, _, _): "reinstated \(id)"
        case .showError(let id, let error): "failed \(id) \(error.name)"
        }
    }
}

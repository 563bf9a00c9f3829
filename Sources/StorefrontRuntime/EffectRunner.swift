import AppSide
import Foundation
import StoreCore
import StorefrontUI
import StoreKitModel

/// Performs the reducer's effects against the store and the app's ledger, one at a time in the
/// order asked (so a refresh never overtakes the purchase it follows), on a task of its own:
/// the UI loop never waits for the disk or the network.
public final class EffectRunner: Sendable {
    public let store: any StoreBackend
    public let observer: PurchaseObserver
    public let inbox: Inbox
    private let queue: AsyncStream<Effect>.Continuation
    private let work: AsyncStream<Effect>

    public init(store: any StoreBackend, observer: PurchaseObserver, inbox: Inbox) {
        self.store = store
        self.observer = observer
        self.inbox = inbox
        (work, queue) = AsyncStream.makeStream(of: Effect.self, bufferingPolicy: .unbounded)
    }

    public func submit(_ effects: [Effect]) {
        for effect in effects { queue.yield(effect) }
    }

    /// Runs the effects until the stream ends, `first` (completing what an earlier process left
    /// half done) before the first of them: the UI submits them after its first frame, which so
    /// shares the cores with none of this. Then forwards the store's transaction updates to the UI.
    public func start(first: @escaping @Sendable () async throws -> Void) -> Task<Void, Never> {
        Task {
            var ranFirst = false
            for await effect in work {
                if !ranFirst {
                    await run(first)
                    await forwardUpdates()
                    ranFirst = true
                }
                await run { try await self.perform(effect) }
            }
        }
    }

    /// Subscribes before it returns, so no effect's update is missed; after `first`, whose updates
    /// (orphans completed, renewals) the UI gets from the unfinished transactions it replays, once.
    private func forwardUpdates() async {
        let updates = await store.updates()
        let inbox = inbox
        Task {
            for await update in updates { inbox.push(.transactionUpdate(update)) }
        }
    }

    /// One job; its failure becomes a message for the UI.
    private func run(_ job: () async throws -> Void) async {
        do {
            try await job()
        } catch let error as StoreFailure {
            inbox.push(.effectFailed(error.message))
        } catch {
            inbox.push(.effectFailed(String(describing: error)))
        }
    }

    public func finish() {
        queue.finish()
    }

    private func perform(_ effect: Effect) async throws {
        switch effect {
        case .loadProducts(let storefront):
            do {
                let response = try await store.products(ids: observer.catalog.allProductIds, storefront: storefront)
                inbox.push(.productsLoaded(response))
            } catch {
                inbox.push(.productsFailed(String(describing: error)))
            }
        case .buy(let productId, let quantity, let account):
            let transaction = try await observer.buy(Payment(productId: productId, quantity: quantity, account: account))
            inbox.push(.paymentAdded(transaction))
        case .handle(let update):
            inbox.push(.appSteps(try await observer.handle(update)))
        case .refresh(let account):
            // Periodic and quiet: a store that does not answer is a state to show, not a sheet per try.
            do {
                inbox.push(.snapshot(try await snapshot(account: account)))
            } catch {
                inbox.push(.refreshFailed((error as? StoreFailure)?.message ?? String(describing: error)))
            }
        case .replayUnfinished(let account):
            for update in try await store.unfinished(account: account) { inbox.push(.transactionUpdate(update)) }
        case .restore(let account):
            do {
                let restored = try await store.restore(account: account)
                inbox.push(.restoreFinished(restored.isEmpty ? .nothing : .restored(restored.map(\.transaction.productId))))
            } catch let error as StoreError {
                inbox.push(.restoreFinished(.failed(error)))
            }
        case .setControls(let controls):
            defer { inbox.push(.controlsSaved) }
            try await store.setControls(controls)
        case .manage(let action):
            // Updates it causes (an approval, a renewal) arrive through the store's update stream.
            _ = try await store.perform(action)
        case .retryVerification(let account):
            let steps = try await observer.retryDue(account: account)
            if !steps.isEmpty { inbox.push(.appSteps(steps)) }
        case .quit:
            break
        }
    }

    private func snapshot(account: String) async throws -> StoreSnapshot {
        StoreSnapshot(history: try await store.transactions(account: account),
                      pending: try await observer.pending(account: account),
                      balances: try observer.ledger.balances(account: account),
                      entitlements: try await store.entitlements(account: account),
                      controls: try await store.controls())
    }
}

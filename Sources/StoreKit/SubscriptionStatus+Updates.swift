import Foundation
import StoreCore
import StoreKitModel

extension Product.SubscriptionInfo.Status {
    /// StoreKit 2's `Product.SubscriptionInfo.Status.Statuses`: the statuses that changed, as
    /// they change.
    public struct Statuses: AsyncSequence, Sendable {
        public typealias Element = Product.SubscriptionInfo.Status
        public typealias AsyncIterator = AsyncStream<Element>.Iterator

        let make: @Sendable () -> AsyncStream<Element>

        public func makeAsyncIterator() -> AsyncIterator { make().makeAsyncIterator() }
    }

    /// Each subscription status of the account that changes while the app listens: a purchase,
    /// a renewal, an expiry, billing retry or grace, auto-renew turned off or on, a price
    /// increase, a refund. What it was when the listening began is not sent.
    public static var updates: Statuses {
        Statuses {
            AsyncStream { continuation in
                let task = Task {
                    try? await StatusListener().run { continuation.yield($0) }
                    continuation.finish()
                }
                continuation.onTermination = { _ in task.cancel() }
            }
        }
    }
}

/// One `for await … in Status.updates`: the statuses read again at each transaction update of
/// the account and at each tick, since a change of renewal info (auto-renew, a price increase)
/// or an expiry at its time is no transaction update; each yielded when it differs from the
/// last seen of its chain.
struct StatusListener {
    /// How often the statuses are read with no transaction update to prompt it.
    static let tick = Duration.seconds(1)

    func run(_ yield: (Product.SubscriptionInfo.Status) -> Void) async throws {
        let store = try await StoreKitCall.store()
        let prompts = Self.prompts(store, updates: await store.backend.updates())
        var seen: [UInt64: StatusFingerprint] = [:]
        for status in (try? await SubscriptionStatuses.read(store, groupID: nil, simulating: false)) ?? [] {
            seen[status.chain] = StatusFingerprint(status)
        }
        for await _ in prompts {
            guard let statuses = try? await SubscriptionStatuses.read(store, groupID: nil, simulating: false) else {
                continue
            }
            for status in statuses {
                let fingerprint = StatusFingerprint(status)
                guard seen[status.chain] != fingerprint else { continue }
                seen[status.chain] = fingerprint
                yield(status)
            }
        }
    }

    /// A prompt at each of the account's transaction updates and at each tick, until cancelled.
    static func prompts(_ store: OpenedStore, updates: AsyncStream<TransactionUpdate>) -> AsyncStream<Void> {
        let account = store.account.name
        // One prompt waiting is enough: a read after it sees every change before it.
        return AsyncStream(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let listening = Task {
                for await update in updates where update.transaction.payment.account == account {
                    continuation.yield()
                }
            }
            let ticking = Task {
                while !Task.isCancelled {
                    try? await Task.sleep(for: tick)
                    continuation.yield()
                }
            }
            continuation.onTermination = { _ in
                listening.cancel()
                ticking.cancel()
            }
        }
    }
}

/// What makes a status new: its state, its transaction and its renewal info less the time it
/// was signed (renewal info is signed afresh at every read, as Apple signs it at each request).
struct StatusFingerprint: Hashable {
    let state: Product.SubscriptionInfo.RenewalState
    let transaction: String
    let renewal: Data

    init(_ status: Product.SubscriptionInfo.Status) {
        state = status.state
        transaction = status.transaction.jwsRepresentation
        let json = status.renewalInfo.unsafePayloadValue.jsonRepresentation
        if var object = (try? JSONSerialization.jsonObject(with: json)) as? [String: Any] {
            object["signedDate"] = nil
            renewal = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? json
        } else {
            renewal = json
        }
    }
}

extension Product.SubscriptionInfo.Status {
    /// The chain's original transaction id.
    var chain: UInt64 { renewalInfo.unsafePayloadValue.originalTransactionID }
}

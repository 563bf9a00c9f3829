import Foundation
import StoreCore
import StoreKitModel

extension Transaction {
    /// StoreKit 2's `Transaction.Transactions`: an asynchronous sequence of verified or
    /// unverified transactions, read from the store when iterated.
    public struct Transactions: AsyncSequence, Sendable {
        public typealias Element = VerificationResult<Transaction>
        public typealias AsyncIterator = AsyncStream<Element>.Iterator

        let make: @Sendable () -> AsyncStream<Element>

        public func makeAsyncIterator() -> AsyncIterator { make().makeAsyncIterator() }

        /// A sequence of what `read` returns, read once.
        static func reading(_ read: @escaping @Sendable () async throws -> [Element]) -> Transactions {
            Transactions {
                AsyncStream { continuation in
                    let task = Task {
                        for element in (try? await read()) ?? [] { continuation.yield(element) }
                        continuation.finish()
                    }
                    continuation.onTermination = { _ in task.cancel() }
                }
            }
        }
    }

    /// Every transaction of the account: purchases, renewals, refunded ones with their
    /// revocation; not failed or pending payments, nor StoreKit 1's restored copies.
    public static var all: Transactions {
        .reading {
            let store = try await StoreKitCall.store()
            let transactions = try await StoreKitCall.run {
                try await store.backend.transactions(account: store.account.name)
            }
            return try await TransactionSigning.verified(
                transactions.filter { $0.state == .purchased }.reversed(), store: store)
        }
    }

    /// The account's purchases the app has not finished.
    public static var unfinished: Transactions {
        .reading {
            let store = try await StoreKitCall.store()
            return try await TransactionSigning.verified(try await unfinishedTransactions(store), store: store)
        }
    }

    /// What the account is entitled to now: each non-consumable and non-renewing purchase not
    /// revoked, and each auto-renewable subscription's latest transaction while it is active.
    public static var currentEntitlements: Transactions {
        .reading {
            let store = try await StoreKitCall.store()
            return try await Entitlements.current(store, productID: nil)
        }
    }

    /// `currentEntitlements` for one product.
    public static func currentEntitlements(for productID: String) -> Transactions {
        .reading {
            let store = try await StoreKitCall.store()
            return try await Entitlements.current(store, productID: productID)
        }
    }

    /// The first of `currentEntitlements(for:)`, if any.
    public static func currentEntitlement(for productID: String) async -> VerificationResult<Transaction>? {
        for await entitlement in currentEntitlements(for: productID) { return entitlement }
        return nil
    }

    /// The account's latest transaction for the product, if it has one.
    public static func latest(for productID: String) async -> VerificationResult<Transaction>? {
        guard let store = try? await StoreKitCall.store(),
            let transactions = try? await store.backend.transactions(account: store.account.name),
            let latest = transactions.first(where: { $0.productId == productID && $0.state == .purchased })
        else { return nil }
        return try? await TransactionSigning.verified([latest], store: store).first
    }

    static func unfinishedTransactions(_ store: OpenedStore) async throws -> [StoreKitModel.Transaction] {
        try await StoreKitCall.run { try await store.backend.unfinished(account: store.account.name) }
            .map(\.transaction).filter { $0.state == .purchased }
    }
}

extension Product {
    /// The account's current entitlement to this product, if any.
    public var currentEntitlement: VerificationResult<Transaction>? {
        get async { await Transaction.currentEntitlement(for: id) }
    }

    /// The account's latest transaction for this product, if any.
    public var latestTransaction: VerificationResult<Transaction>? {
        get async { await Transaction.latest(for: id) }
    }
}

/// StoreKit 2's current entitlements from the store's.
enum Entitlements {
    static func current(_ store: OpenedStore, productID: String?) async throws -> [VerificationResult<Transaction>] {
        let now = store.now
        let entitlements = try await StoreKitCall.run {
            try await store.backend.entitlements(account: store.account.name)
        }
        .filter { ($0.productId == productID || productID == nil) && $0.isActive(at: now) }
        let ids = Set(entitlements.map(\.transactionId))
        let transactions = try await StoreKitCall.run {
            try await store.backend.transactions(account: store.account.name)
        }
        .filter { ids.contains($0.id) }
        return try await TransactionSigning.verified(transactions, store: store).filter {
            $0.unsafePayloadValue.revocationDate == nil
        }
    }
}

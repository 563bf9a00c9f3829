import Foundation
import StoreCore
import StoreKitModel

/// A `StoreBackend` whose answers a test sets, which records every call in order and can hold
/// any call until the test releases it: for code that drives a store, tested apart from one. A
/// test awaits a held call (`held(_:)`) rather than polling for it.
public actor ScriptedStore: StoreBackend {
    /// The calls received, by method name (`add`, `products`, `setControls`, …), oldest first.
    public private(set) var calls: [String] = []
    /// The calls with the test's releases among them (`release perform`): a call made while
    /// another was held comes before that call's release, however long the hold lasted.
    public private(set) var events: [String] = []
    public var failures: [String: any Error] = [:]
    public var unfinishedUpdates: [TransactionUpdate] = []
    public var restored: [TransactionUpdate] = []
    public var history: [Transaction] = []
    public var storedControls = TestControls()
    /// What `add` publishes on the update stream before it returns, as a store that completes a
    /// payment without latency does; the added transaction itself is always published first.
    public var publishedDuringAdd: [TransactionState] = []
    /// What the next `takeMessages` and `takePurchaseIntents` give, once.
    public var waitingMessages: [AppStoreMessage] = []
    public var waitingIntents: [PurchaseIntentInfo] = []
    private let catalog: Catalog
    private var holds: Set<String> = []
    private var waiting: [String: [CheckedContinuation<Void, Never>]] = [:]
    /// Tests awaiting a held call of a method.
    private var holdWatchers: [(method: String, continuation: CheckedContinuation<Void, Never>)] = []
    private var subscribers: [AsyncStream<TransactionUpdate>.Continuation] = []
    private var nextId = 2_000_000_000_000_001

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    public func set(_ change: @Sendable (isolated ScriptedStore) -> Void) {
        change(self)
    }

    /// The next calls of `method` wait until `release(method)`.
    public func hold(_ method: String) {
        holds.insert(method)
    }

    public func release(_ method: String) {
        events.append("release \(method)")
        holds.remove(method)
        for continuation in waiting.removeValue(forKey: method) ?? [] { continuation.resume() }
    }

    /// Returns once a call of `method` is held, waiting for `release(method)`.
    public func held(_ method: String) async {
        if waiting[method]?.isEmpty == false { return }
        await withCheckedContinuation { holdWatchers.append((method, $0)) }
    }

    public func publish(_ update: TransactionUpdate) {
        for subscriber in subscribers { subscriber.yield(update) }
    }

    private func call(_ method: String) async throws {
        calls.append(method)
        events.append(method)
        if holds.contains(method) {
            await withCheckedContinuation { continuation in
                waiting[method, default: []].append(continuation)
                let holding = holdWatchers.filter { $0.method == method }
                holdWatchers.removeAll { $0.method == method }
                for watcher in holding { watcher.continuation.resume() }
            }
        }
        if let failure = failures[method] { throw failure }
    }

    public var identity = "scripted-store"

    public func storeId() async throws -> String {
        try await call("storeId")
        return identity
    }

    public func products(ids: [String], storefront: String?) async throws -> ProductsResponse {
        try await call("products")
        let storefront = catalog.storefront(id: storefront ?? catalog.defaultStorefront) ?? catalog.storefronts[0]
        return catalog.request(ids: ids, storefront: storefront)
    }

    public func add(_ payment: Payment, forcing: PaymentOutcome?) async throws -> Transaction {
        try await call("add")
        let id = String(nextId)
        nextId += 1
        let transaction = Transaction(
            id: id, originalId: id, payment: payment, state: .purchasing, error: nil,
            purchaseDate: Date(timeIntervalSince1970: 1_800_000_000), finished: false)
        publish(TransactionUpdate(transaction: transaction, receipt: nil))
        for state in publishedDuringAdd {
            var later = transaction
            later.state = state
            publish(TransactionUpdate(transaction: later, receipt: state == .purchased ? "receipt-\(id)" : nil))
        }
        return transaction
    }

    public func updates() async -> AsyncStream<TransactionUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: TransactionUpdate.self, bufferingPolicy: .unbounded)
        subscribers.append(continuation)
        return stream
    }

    public func unfinished(account: String) async throws -> [TransactionUpdate] {
        try await call("unfinished")
        return unfinishedUpdates
    }

    public func finish(transactionId: String, account: String) async throws {
        try await call("finish")
    }

    public func restore(account: String) async throws -> [TransactionUpdate] {
        try await call("restore")
        return restored
    }

    public func transactions(account: String?) async throws -> [Transaction] {
        try await call("transactions")
        return history
    }

    public func families() async throws -> [String: String] {
        try await call("families")
        return [:]
    }

    public func entitlements(account: String) async throws -> [Entitlement] {
        try await call("entitlements")
        return []
    }

    public func appTransaction(account: String) async throws -> AppTransactionInfo {
        try await call("appTransaction")
        return AppTransactionInfo(
            appTransactionId: "1", bundleId: "com.example.scripted",
            originalPurchaseDate: Date(timeIntervalSince1970: 0),
            originalApplicationVersion: AppTransactionInfo.appVersion, environment: .xcode)
    }

    public func verify(receipt: String, transactionId: String, productId: String, claim: String) async throws
        -> VerificationResult
    {
        try await call("verify")
        return .verified
    }

    public func controls() async throws -> TestControls {
        try await call("controls")
        return storedControls
    }

    public func setControls(_ controls: TestControls) async throws {
        try await call("setControls")
        storedControls = controls
    }

    public func perform(_ action: ManageAction) async throws -> [TransactionUpdate] {
        try await call("perform")
        return []
    }

    public func takeMessages(account: String) async throws -> [AppStoreMessage] {
        try await call("takeMessages")
        defer { waitingMessages = [] }
        return waitingMessages
    }

    public func takePurchaseIntents(account: String) async throws -> [PurchaseIntentInfo] {
        try await call("takePurchaseIntents")
        defer { waitingIntents = [] }
        return waitingIntents
    }
}

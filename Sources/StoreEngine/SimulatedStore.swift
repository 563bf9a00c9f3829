import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL
import StoreSigning

/// The embedded store: StoreKit's payment-queue semantics over a durable SQLite file. Every
/// state change is committed before it is reported, and a purchase interrupted by a crash is
/// completed at the next start from the outcome recorded when it was added.
public actor SimulatedStore: StoreBackend {
    public nonisolated let catalog: Catalog
    let database: StoreDatabase
    /// Every time the store reads, and the one the server that serves it reads and waits on.
    public nonisolated let clock: any StoreClock
    let signer: ReceiptSigner
    /// Signs StoreKit 2's transactions with the receipts' identity (`SignedTransactionSource`).
    let transactionSigner: TransactionSigner
    let defaults: TestControls
    /// `--storefront` for one command: applies to this process only, unlike the persisted control.
    let storefrontOverride: String?
    /// The receipt environment: `Xcode` in process; `Sandbox` or `Production` when served.
    public nonisolated let environment: StoreEnvironment
    /// The test controls as stored when the store opened: a command's first look at them, read
    /// with the signing key on the writer's connection (a first reader connection costs about a
    /// millisecond to open). Later changes, from this process or another, come from `controls()`.
    public nonisolated let openingControls: TestControls
    /// Made once per store database and kept in it (see `StoreBackend.storeId`).
    public nonisolated let identity: String
    private(set) var subscribers: [UUID: AsyncStream<TransactionUpdate>.Continuation] = [:]
    /// Where server notifications go; none in process, where no server listens.
    public nonisolated let outbox = NotificationOutbox()
    /// Up to when `sweepTimedEvents` has looked.
    var sweptUntil: Date?
    /// The highest next transaction number `checkUnderfoot` read: numbering never goes back.
    var highestNumberSeen: Int64 = 0
    /// Each subscription group's auto-renewable products: an account's subscription in a group
    /// is found among them (`subscriptionIdentity`), and its win-back offers.
    nonisolated let groupMembers: [String: GroupMembers]

    public init(
        catalog: Catalog, database: StoreDatabase, clock: any StoreClock = SystemClock(),
        storefrontOverride: String? = nil,
        environment: StoreEnvironment = .xcode
    ) throws {
        self.catalog = catalog
        self.groupMembers = Self.groupMembers(of: catalog)
        self.environment = environment
        self.clock = clock
        self.storefrontOverride = storefrontOverride
        let defaults = TestControls(seed: catalog.settings)
        self.defaults = defaults
        self.database = database
        let (key, chain, controls, identity): (Data, [Data], TestControls, String)
        do {
            (key, chain, controls, identity) = try database.writeNow { db in
                let key = try Self.signingKey(db, create: SigningIdentity.newKey)
                let chain = try Self.signingChain(db) { try SigningIdentity.mintChain(forKey: key, at: Date()) }
                return (key, chain, try TestControls.load(db, defaults: defaults), try Self.identity(db))
            }
        } catch {
            throw StoreDatabase.cannotOpen(database.location, error)
        }
        let signingIdentity = try SigningIdentity(kept: key, chain: chain)
        signer = try ReceiptSigner(identity: signingIdentity)
        transactionSigner = TransactionSigner(identity: signingIdentity)
        openingControls = controls
        self.identity = identity
    }

    /// Completes purchases that a process which has since died left in `purchasing`, and runs
    /// the scheduler's pass: a command's one look at time-driven work. A live owner is left alone: it is still waiting out its latency.
    public func resume() async throws {
        let orphans = try await database.read { db in
            try SQLRow.fetchAll(
                db, sql: "SELECT id, owner FROM transactions WHERE state = ?",
                arguments: [TransactionState.purchasing.rawValue]
            )
            .filter { row in
                guard let owner = (try row["owner"] as String?).flatMap(ProcessIdentity.init(token:)) else {
                    return true
                }
                return owner != ProcessIdentity.current && !owner.isAlive
            }
            .map { try $0["id"] as String }
        }
        for id in orphans { try await process(id) }
        try await scheduler.runDue()
    }

    /// The store's identity, made with its database (or at its first open by this version).
    private static func identity(_ db: any SQLDatabase) throws -> String {
        if let saved = try StoreDatabase.setting(db, "store_id") { return saved }
        let identity = UUID().uuidString.lowercased()
        try StoreDatabase.setSetting(db, "store_id", identity)
        return identity
    }

    public nonisolated func storeId() -> String { identity }

    public nonisolated var storageHealth: StorageHealth { database.health }

    /// A write of nothing, under the store's write lock: whether writes work again after one
    /// failed (`/v1/health` asks). Its success clears `storageHealth`, its failure keeps it.
    public nonisolated func checkWrites() async throws {
        try await database.write { _ in }
    }

    /// `sqlite` or `postgresql`: where the store's tables are, as `/v1/health` names it.
    public nonisolated var storageKind: String {
        switch database.dialect {
        case .sqlite: "sqlite"
        case .postgres: "postgresql"
        }
    }

    // MARK: Updates

    /// Yields when another process commits to the store, where the storage hears of that
    /// (PostgreSQL); nil where it does not.
    public nonisolated func commitsElsewhere() -> AsyncStream<Void>? {
        database.storage.commitsElsewhere?.stream()
    }

    public func updates() -> AsyncStream<TransactionUpdate> {
        let (stream, continuation) = AsyncStream.makeStream(of: TransactionUpdate.self, bufferingPolicy: .unbounded)
        let id = UUID()
        subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { await self?.unsubscribe(id) }
        }
        return stream
    }

    private func unsubscribe(_ id: UUID) {
        subscribers[id] = nil
    }

    func publish(_ updates: [TransactionUpdate]) {
        for update in updates {
            for continuation in subscribers.values { continuation.yield(update) }
        }
    }

    /// The update an app is sent for `stored`, without its receipt (see `withReceipts`); `controls`
    /// say whether order ids are dropped.
    nonisolated func update(for stored: StoredTransaction, controls: TestControls) -> TransactionUpdate {
        var transaction = stored.published
        // A closed Ask to Buy request is the store's to know: the app's transaction stays deferred.
        if transaction.state == .deferred { transaction.failureContext = nil }
        if controls.dropOrderIds {
            let payment = transaction.payment
            transaction = Transaction(
                id: transaction.id, originalId: transaction.originalId,
                payment: Payment(productId: payment.productId, quantity: payment.quantity, account: payment.account),
                state: transaction.state, error: transaction.error, purchaseDate: transaction.purchaseDate,
                finished: transaction.finished, terms: transaction.terms, failureContext: transaction.failureContext)
        }
        return TransactionUpdate(transaction: transaction, receipt: nil)
    }

    /// The account's receipt: its purchases and restores in the order made, less the consumables
    /// the app finished (`Transaction.isListedInReceipt`).
    nonisolated func receipt(account: String, _ db: any SQLDatabase) throws -> String {
        let rows = try SQLRow.fetchAll(db.cachedStatement(sql: Self.receiptQuery), arguments: [account])
        let listed = try rows.compactMap { row -> ReceiptPayload.InApp? in
            let stored = try StoredTransaction(row: row)
            let type = catalog.product(id: stored.transaction.productId)?.type
            guard stored.transaction.isListedInReceipt(as: type) else { return nil }
            return ReceiptPayload.InApp(
                stored, originalPurchaseDate: Date(timeIntervalSince1970: try row[StoredTransaction.fieldCount]),
                type: type
            )
        }
        return try signer.sign(
            .issued(
                environment: environment, bundleId: catalog.bundleId, account: account, at: clock.now(), inApp: listed))
    }

    private static let receiptQuery =
        "\(StoredTransaction.withOriginalPurchaseDate) WHERE t.account = ? AND t.state IN \(StateSQL.paid) ORDER BY t.seq"

    // MARK: Products and controls

    public func products(ids: [String], storefront: String?) async throws -> ProductsResponse {
        let controls = try await controls()
        if let error = controls.apiErrors[.loadProducts] { throw error }
        let id = storefront ?? storefrontOverride ?? controls.storefront ?? catalog.defaultStorefront
        guard let storefront = catalog.storefront(id: id) else {
            throw StoreFailure(
                "unknown storefront \(id) (this catalog has \(catalog.storefronts.map(\.id).joined(separator: ", ")))",
                kind: .invalid)
        }
        return catalog.request(ids: ids, storefront: storefront)
    }

    public func controls() async throws -> TestControls {
        let defaults = defaults
        return try await database.read { db in try TestControls.load(db, defaults: defaults) }
    }

    /// Saves the controls. A new time rate applies to the subscription periods in force too
    /// (`rescalePeriodsInForce`).
    public func setControls(_ controls: TestControls) async throws {
        let defaults = defaults
        let now = clock.now()
        try await database.write { db in
            let old = try TestControls.load(db, defaults: defaults)
            try controls.save(db)
            try self.rescalePeriodsInForce(from: old.timeRate, to: controls.timeRate, at: now, db)
        }
    }

    public func transactions(account: String?) async throws -> [Transaction] {
        try await database.read { db in
            let rows =
                if let account {
                    try StoredTransaction.fetchAll(db, where: "account = ?", [account])
                } else {
                    try StoredTransaction.fetchAll(db)
                }
            var transactions = rows.reversed().map(\.published)
            try Self.markFinishers(&transactions, account: account, db)
            try RefundRequests.mark(&transactions, account: account, db)
            return transactions
        }
    }
}

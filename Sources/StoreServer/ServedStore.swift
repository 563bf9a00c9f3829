import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSQL

/// What the server needs from a store beyond the `StoreBackend` seam: idempotent adds and the
/// idempotency keys, the update journal by cursor, the details a signed transaction reports, the
/// signing key, and receipt checking. Everything a second server instance would need is here,
/// none of it only in memory. The simulated store provides it over SQLite; another store
/// (PostgreSQL) would implement the same.
public protocol ServedStore: StoreBackend {
    var catalog: Catalog { get }
    /// The one clock of the store and the server over it.
    var clock: any StoreClock { get }
    /// The receipt environment: `Sandbox` or `Production` when served.
    var environment: StoreEnvironment { get }
    /// A payment, its idempotency key and its answer in one commit (see `SimulatedStore`).
    func add(
        _ payment: Payment, idempotency: IdempotentRequest,
        respond: @escaping @Sendable (Transaction, TransactionDetails) throws -> StoredResponse
    ) async throws -> IdempotentAdd
    func reserve(_ request: IdempotentRequest) async throws -> IdempotencyReservation
    func complete(key: String, generation: String, response: StoredResponse) async throws -> StoredResponse
    @discardableResult
    func purgeKeys(reservedBefore date: Date) async throws -> Int
    func transactionSigningKey(create: @escaping @Sendable () -> Data) async throws -> Data
    /// The certificates of the signing key (DER, `x5c` order), made by `create` on first use and kept.
    func signingChain(create: @escaping @Sendable () throws -> [Data]) async throws -> [Data]
    func journal(account: String?, after cursor: Int64, limit: Int) async throws -> [JournalEntry]
    func journalCursor() async throws -> Int64
    func details(transactionIds: [String]) async throws -> [String: TransactionDetails]
    func openReceipt(_ receipt: String) -> ReceiptCheck
    func currentReceipt(account: String) async throws -> String
    func renewDue() async throws
    /// Numbers this run's transactions from `now`, above any a restored or copied database issued.
    func numberTransactionsFrom(_ now: Date) async throws
    func resume() async throws
    // The App Store Server API.
    func serverTransaction(id: String) async throws -> ServerTransaction?
    func account(ofTransaction id: String) async throws -> String?
    func history(account: String, filter: HistoryFilter, after position: HistoryPosition?, limit: Int) async throws
        -> HistoryPage
    func subscriptionStatuses(account: String) async throws -> [SubscriptionStatus]
    func setAppAccountToken(_ token: UUID, originalTransactionId: String) async throws -> Bool
    func recordConsumption(transactionId: String, body: String) async throws
    func finishFromServer(transactionId: String) async throws -> Bool
    func consumptionReports() async throws -> [ConsumptionReport]
    func extendRenewal(originalTransactionId: String, days: Int, reason: Int, requestIdentifier: String) async throws
        -> Result<RenewalExtension, RenewalExtension.Refusal>?
    func subscriptionStatus(originalTransactionId: String) async throws -> SubscriptionStatus?
    func startMassExtension(_ request: MassExtensionRequest) async throws -> MassExtensionStart
    func massExtensionStatus(requestIdentifier: String) async throws -> MassExtensionStatus?
    func massExtensionStatuses(_ identifiers: Set<String>) async throws -> [String: MassExtensionStatus]
    func massExtensions(limit: Int) async throws -> [MassExtensionStatus]
    /// One commit of the oldest unfinished mass extension; how many subscribers it handled.
    @discardableResult
    func advanceMassExtensions(limit: Int) async throws -> Int
    // The Retention Messaging API.
    func uploadRetentionImage(_ image: RetentionImage, png: Data, limit: Int) async throws
        -> Result<Void, RetentionRefusal>
    func deleteRetentionImage(_ id: UUID) async throws -> Result<Void, RetentionRefusal>
    func retentionImages() async throws -> [RetentionImage]
    func retentionImages(_ ids: [UUID]) async throws -> [RetentionImage]
    func uploadRetentionMessage(_ message: RetentionMessage, limit: Int) async throws
        -> Result<Void, RetentionRefusal>
    func deleteRetentionMessage(_ id: UUID) async throws -> Bool
    func retentionMessages() async throws -> [RetentionMessage]
    func retentionMessage(_ id: UUID) async throws -> RetentionMessage?
    func setDefaultRetentionMessage(productId: String, locale: String, messageId: UUID) async throws
        -> Result<Void, RetentionRefusal>
    func defaultRetentionMessage(productId: String, locale: String) async throws -> UUID?
    func deleteDefaultRetentionMessage(productId: String, locale: String) async throws -> Bool
    func reviewRetentionMessage(_ id: UUID, _ state: ReviewState) async throws -> Bool
    func reviewRetentionImage(_ id: UUID, _ state: ReviewState) async throws -> Bool
    func retentionRealtimeURL() async throws -> String?
    func setRetentionRealtimeURL(_ url: String?) async throws
    func savePerformanceTest(_ test: RetentionPerformanceTest) async throws
    func performanceTests() async throws -> [RetentionPerformanceTest]
    // Server notifications: the outbox and its deliveries.
    var outbox: NotificationOutbox { get }
    func sweepTimedEvents() async throws
    func dueDeliveries(at now: Date, urls: [String], limit: Int) async throws -> [NotificationDelivery]
    func claimDeliveries(_ deliveries: [NotificationDelivery], at now: Date, until lease: Date) async throws
        -> [NotificationDelivery]
    func pendingURLs() async throws -> [String]
    func nextDeliveryDue(after now: Date) async throws -> Date?
    func keepSignedPayloads(_ payloads: [UUID: String]) async throws -> [UUID: String]
    func notificationContexts(transactionIds: Set<String>) async throws -> [String: NotificationContext]
    func recordAttempts(_ attempts: [(SendAttempt, NotificationDelivery)]) async throws
    @discardableResult
    func sendPendingNotificationsNow() async throws -> Int
    func requestTestNotification() async throws -> StoredNotification?
    func notificationRecord(_ uuid: UUID) async throws -> NotificationRecord?
    func notificationHistory(_ filter: NotificationFilter, after sequence: Int64?, limit: Int) async throws
        -> (records: [NotificationRecord], hasMore: Bool)
    func recentNotifications(limit: Int) async throws -> [NotificationRecord]
    /// Transaction JWS signatures issued in earlier runs, by the digest of their signing input.
    func issuedSignatures() async throws -> [(Data, String)]
    func keepIssuedSignatures(_ signatures: [(Data, String)]) async throws
    func serverSetting(_ key: String) async throws -> String?
    func setServerSetting(_ key: String, _ value: String?) async throws
    /// The last storage failure, until a write succeeds again (`/v1/health`).
    var storageHealth: StorageHealth { get }
    /// `sqlite` or `postgresql` (`/v1/health`).
    var storageKind: String { get }
}

extension SimulatedStore: ServedStore {}

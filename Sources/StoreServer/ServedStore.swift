import Foundation
import StoreEngine
import StoreKitModel

/// What the server needs from a store beyond the `StoreBackend` seam: idempotent adds, the update
/// journal by cursor, the details a signed transaction reports, and receipt checking. The
/// simulated store provides it over SQLite; another store (PostgreSQL) would implement the same.
public protocol ServedStore: StoreBackend {
    var catalog: Catalog { get }
    /// The receipt environment: `Sandbox` or `Production` when served.
    var environment: String { get }
    func add(_ payment: Payment, requestKey: String?) async throws -> Transaction
    func journal(account: String?, after cursor: Int64, limit: Int) async throws -> [JournalEntry]
    func journalCursor() async throws -> Int64
    func details(transactionIds: [String]) async throws -> [String: TransactionDetails]
    func openReceipt(_ receipt: String) -> ReceiptCheck
    func currentReceipt(account: String) async throws -> String
    func renewDue() async throws
    func resume() async throws
}

extension SimulatedStore: ServedStore {}

import Foundation
import LocalState
import ServerRecords
import StoreCore
import StoreKitModel
import StoreSQL

/// The simulated store's durable state: transactions, the test controls, the signing keys, the
/// app server's record of consumed transaction ids, and a server's idempotency keys, on the
/// storage seam only (`StoreStorage`), so the engine is the same on SQLite and PostgreSQL.
///
/// Opened apart from `SimulatedStore`, which needs the catalog: a command opens it while the
/// catalog loads.
public struct StoreDatabase: Sendable {
    /// Where the tables are: the state directory's SQLite file unless the store was opened on
    /// another storage.
    package let storage: any StoreStorage

    /// The store on `storage`, opened and migrated by its owner: `SQLiteStorage.store(in:)` for
    /// a state directory's file, `PostgresStorage` for a database that servers share.
    public init(storage: any StoreStorage) {
        self.storage = storage
    }

    var location: String { storage.location }
    var dialect: SQLDialect { storage.dialect }
    var health: StorageHealth { storage.health }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try refuseIfRetired()
        return try await storage.read(body)
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) throws -> T) async throws -> T {
        try refuseIfRetired()
        return try await storage.write(body)
    }

    func writeNow<T>(_ body: (any SQLDatabase) throws -> T) throws -> T {
        try refuseIfRetired()
        return try storage.writeNow(body)
    }

    /// A store found changed under this process (`SimulatedStore.checkUnderfoot`) is not used:
    /// what the process keeps in memory belongs to the store it opened.
    private func refuseIfRetired() throws {
        if let reason = health.retired { throw StoreFailure(reason, kind: .unavailable, shareable: true) }
    }

    /// Opening failed, here or in the store's first write (`SimulatedStore.init`): which of the two
    /// meets a lock another process holds depends on what the last process left in the log, and the
    /// user reads the same message either way.
    static func cannotOpen(_ path: String, _ error: any Error) -> StoreFailure {
        StoreFailure("cannot open the store database \(path): \(StateLock.explain(error, path: path))")
    }
}

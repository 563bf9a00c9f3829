import Foundation
import LocalState
import StoreCore
import StoreSQL

/// What a server keeps of its signing with the store: the transaction-signing key and its chain
/// (made with the store at its first open), and the JWS signatures issued, so every process
/// signs a transaction the same way across restarts.
public struct SigningRecords: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    /// The signing key (a P-256 private key's raw representation), made by `create` on first use
    /// and kept with the store. The store makes it at its first open; `create` only runs for a
    /// store whose key was removed since.
    public func transactionSigningKey(create: @escaping @Sendable () -> Data) async throws -> Data {
        try await store.database.write { db in try SimulatedStore.signingKey(db, create: create) }
    }

    /// The signing key's certificate chain (DER, leaf first), made by `create` on first use and
    /// kept with the key, so every JWS and receipt names the same chain across restarts.
    public func signingChain(create: @escaping @Sendable () throws -> [Data]) async throws -> [Data] {
        try await store.database.write { db in try SimulatedStore.signingChain(db, create: create) }
    }

    /// A server's own setting kept with the store (registered API keys, notification URLs).
    public func issuedSignatures() async throws -> [(Data, String)] {
        try await store.database.read { db in
            try SQLRow.fetchAll(db, sql: "SELECT digest, signature FROM issued_signatures").map {
                (try $0[0], try $0[1])
            }
        }
    }

    public func keepIssuedSignatures(_ signatures: [(Data, String)]) async throws {
        try await store.database.write { db in
            for (digest, signature) in signatures {
                try db.cachedStatement(
                    sql: "INSERT INTO issued_signatures (digest, signature) VALUES (?, ?) ON CONFLICT DO NOTHING"
                )
                .execute(arguments: [digest, signature])
            }
        }
    }
}

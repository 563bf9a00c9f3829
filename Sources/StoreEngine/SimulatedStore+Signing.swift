import Foundation
import LocalState
import StoreCore
import StoreSQL
import StoreSigning

/// The store's signing identity: one P-256 key and its certificate chain, made with the store
/// and kept in it. Receipts are signed with it here, and a server signs JWS with the same, so a
/// store used in process and then served issues receipts that verify against one root.
extension SimulatedStore {
    /// The signing key (a P-256 private key's raw representation), made by `create` on first use
    /// and kept with the store. The store makes it at its first open; `create` only runs for a
    /// store whose key was removed since.
    public nonisolated func transactionSigningKey(create: @escaping @Sendable () -> Data) async throws -> Data {
        try await database.write { db in try Self.signingKey(db, create: create) }
    }

    /// The signing key's certificate chain (DER, leaf first), made by `create` on first use and
    /// kept with the key, so every JWS and receipt names the same chain across restarts.
    public nonisolated func signingChain(create: @escaping @Sendable () throws -> [Data]) async throws -> [Data] {
        try await database.write { db in try Self.signingChain(db, create: create) }
    }

    static func signingKey(_ db: any SQLDatabase, create: () -> Data) throws -> Data {
        if let saved = try StoreDatabase.setting(db, "jws_key"), let data = Data(base64Encoded: saved) {
            return data
        }
        let key = create()
        try StoreDatabase.setSetting(db, "jws_key", key.base64EncodedString())
        return key
    }

    static func signingChain(_ db: any SQLDatabase, create: () throws -> [Data]) throws -> [Data] {
        if let saved = try StoreDatabase.setting(db, "jws_chain") {
            let certificates = saved.split(separator: ",").compactMap { Data(base64Encoded: String($0)) }
            if certificates.count == 3 { return certificates }
        }
        let certificates = try create()
        try StoreDatabase.setSetting(
            db, "jws_chain", certificates.map { $0.base64EncodedString() }.joined(separator: ","))
        return certificates
    }
}

extension SigningIdentity {
    /// The key and chain a store kept, refused with advice when they do not belong together.
    public init(kept key: Data, chain: [Data]) throws {
        do {
            try self.init(rawKey: key, chain: SigningChain(certificates: chain))
        } catch {
            throw StoreFailure(
                "the signing key and chain kept in store.sqlite do not belong together (\(error)); the database was edited by hand",
                kind: .storage)
        }
    }
}

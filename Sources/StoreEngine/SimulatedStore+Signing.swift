import Foundation
import LocalState
import StoreCore
import StoreSQL
import StoreSigning

/// The store's signing identity: one P-256 key and its certificate chain, made with the store
/// and kept in it. Receipts are signed with it here, and a server signs JWS with the same, so a
/// store used in process and then served issues receipts that verify against one root.
extension SimulatedStore {

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

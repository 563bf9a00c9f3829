import Crypto
import Foundation
import LocalState
import StoreCore
import StoreKitModel
import StoreSQL

/// The key promotional offers are signed with. A catalog that names one (`products.json`'s
/// `offerSigningKey`, a `.storekit` file's `subscriptionOffersKeyPair`) is signed with that;
/// for one that does not, the store makes a P-256 key once, as Xcode makes a file's Subscription
/// Offers Key, and keeps it in its settings under the catalog's bundle id, so it outlives restarts
/// and an app's server can be handed it once (`storefront offers key`).
extension SimulatedStore {
    /// The key to sign this catalog's promotional offers with, made and kept on first use.
    public func offersKey() async throws -> OfferSigningKey {
        if let key = catalog.settings.offerSigningKey { return key }
        return try await database.write { db in
            if let kept = try self.keptOffersKey(db) { return kept }
            let key = OfferSigningKey(
                keyId: Self.newKeyId(), privateKeyPEM: P256.Signing.PrivateKey().pemRepresentation)
            try StoredOffersKey(key).save(db, name: self.offersKeySetting)
            return key
        }
    }

    /// The key the store checks promotional offers' signatures with, in the caller's read or
    /// write; nil when the catalog names none and none has been made.
    nonisolated func offerVerificationKey(_ db: any SQLDatabase) throws -> OfferSigningKey? {
        try catalog.settings.offerSigningKey ?? keptOffersKey(db)
    }

    nonisolated func keptOffersKey(_ db: any SQLDatabase) throws -> OfferSigningKey? {
        try StoredOffersKey.load(db, name: offersKeySetting)?.key
    }

    nonisolated var offersKeySetting: String { "offers_key:\(catalog.bundleId)" }

    /// Ten capital letters and digits, as App Store Connect names its keys.
    static func newKeyId() -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        var generator = SystemRandomNumberGenerator()
        return String((0..<10).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}

/// An offers key as the settings table keeps it: JSON with the id and the PEM.
struct StoredOffersKey: Codable {
    let keyId: String
    let privateKeyPEM: String

    init(_ key: OfferSigningKey) {
        keyId = key.keyId
        privateKeyPEM = key.privateKeyPEM
    }

    var key: OfferSigningKey { OfferSigningKey(keyId: keyId, privateKeyPEM: privateKeyPEM) }

    func save(_ db: any SQLDatabase, name: String) throws {
        try StoreDatabase.setSetting(db, name, String(decoding: try JSONEncoder().encode(self), as: UTF8.self))
    }

    /// Nil when none is kept; a value edited into something else is refused with advice.
    static func load(_ db: any SQLDatabase, name: String) throws -> StoredOffersKey? {
        guard let text = try StoreDatabase.setting(db, name) else { return nil }
        guard let stored = try? JSONDecoder().decode(StoredOffersKey.self, from: Data(text.utf8)) else {
            throw StoreFailure(
                "the offers key kept in store.sqlite (settings \(name)) is not readable; delete that row to make a new one",
                kind: .storage)
        }
        return stored
    }
}

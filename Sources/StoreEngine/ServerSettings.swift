import Foundation
import LocalState
import StoreCore
import StoreSQL

/// A server's own settings kept with the store (registered API keys, notification URLs), read
/// by every server that shares it.
public struct ServerSettings: Sendable {
    let store: SimulatedStore

    init(_ store: SimulatedStore) {
        self.store = store
    }

    public func value(_ key: String) async throws -> String? {
        try await store.database.read { db in try StoreDatabase.setting(db, "server." + key) }
    }

    public func setValue(_ key: String, _ value: String?) async throws {
        try await store.database.write { db in try StoreDatabase.setSetting(db, "server." + key, value) }
    }
}

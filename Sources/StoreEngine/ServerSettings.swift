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

    /// The settings of `keys` that are set, read together.
    public func values(_ keys: [String]) async throws -> [String: String] {
        try await store.database.read { db in
            var values: [String: String] = [:]
            for key in keys { values[key] = try StoreDatabase.setting(db, "server." + key) }
            return values
        }
    }

    /// Changes the setting of `key` in one write, from its value then: `change` gives the new
    /// value (nil: removed) and what to return.
    public func update<T: Sendable>(_ key: String, _ change: @escaping @Sendable (String?) throws -> (String?, T))
        async throws -> T
    {
        try await store.database.write { db in
            let (value, result) = try change(try StoreDatabase.setting(db, "server." + key))
            try StoreDatabase.setSetting(db, "server." + key, value)
            return result
        }
    }

    public func setValue(_ key: String, _ value: String?) async throws {
        try await store.database.write { db in try StoreDatabase.setSetting(db, "server." + key, value) }
    }
}

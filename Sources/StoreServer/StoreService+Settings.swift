import Foundation
import StoreCore
import StoreEngine
import Synchronization

/// The settings `/admin` keeps with the store (notification URLs, API keys), which every server
/// on the store serves from: a change made through one server is read by the others at their
/// next maintenance pass, within a second.
extension StoreService {
    /// Reads the kept settings and applies them when they changed since the last time; a
    /// setting edited by hand into something unreadable fails here, keeping the last good one.
    func refreshSettings() async throws {
        let names = [Self.notificationURLsSetting, Self.apiKeysSetting]
        let saved = try await store.serverSettings.values(names)
        guard appliedSettings.differs(from: saved) else { return }
        let urls = try saved[Self.notificationURLsSetting].map {
            try Self.keptJSON([String].self, $0, setting: Self.notificationURLsSetting, what: "a JSON array of URLs")
        }
        let keys = try saved[Self.apiKeysSetting].map {
            try Self.keptJSON([APIKey].self, $0, setting: Self.apiKeysSetting, what: "a JSON array of API keys")
        }
        try await apiKeys.replace(with: (keys ?? []) + configuration.apiKeys)
        store.outbox.setURLs(configuration.notifyURLs + (urls ?? []))
        appliedSettings.keep(saved)
    }

    /// Registers a key for the App Store Server API (replacing one with its key id) at every
    /// server on the store.
    func register(_ key: APIKey) async throws {
        _ = try await changeKeys { ($0.filter { $0.keyId != key.keyId } + [key], true) }
    }

    /// Revokes a key `/admin/api-keys` registered, at every server on the store; false if no
    /// such key is registered. A key given with `--api-key` is this server's own, not the store's.
    func revoke(keyId: String) async throws -> Bool {
        if configuration.apiKeys.contains(where: { $0.keyId == keyId }) {
            throw StoreFailure(
                "key \(keyId) was given to this server with --api-key at its start, and stays until the server is restarted without it",
                kind: .conflict)
        }
        return try await changeKeys { keys in (keys.filter { $0.keyId != keyId }, keys.contains { $0.keyId == keyId }) }
    }

    /// Changes the registered keys in one write (two servers registering at once keep both).
    private func changeKeys(_ change: @escaping @Sendable ([APIKey]) -> ([APIKey], Bool)) async throws -> Bool {
        let setting = Self.apiKeysSetting
        let changed = try await store.serverSettings.update(setting) { text in
            let kept = try text.map {
                try Self.keptJSON([APIKey].self, $0, setting: setting, what: "a JSON array of API keys")
            }
            let (keys, result) = change(kept ?? [])
            return (String(decoding: JSONBody.data(keys), as: UTF8.self), result)
        }
        try await refreshSettings()
        return changed
    }
}

/// The kept settings' text as last applied, to tell a change from the same again.
final class AppliedSettings: Sendable {
    private let applied = Mutex<[String: String]?>(nil)

    func differs(from saved: [String: String]) -> Bool {
        applied.withLock { $0 != saved }
    }

    func keep(_ saved: [String: String]) {
        applied.withLock { $0 = saved }
    }
}

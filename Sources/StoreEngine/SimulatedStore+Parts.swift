/// The store's parts beyond the app-facing payment queue, each over the same tables: what the
/// App Store's servers do (the Server API, mass extensions, Retention Messaging, Server
/// Notifications) and what a server keeps with the store (its signing records and settings).
/// Each is a small value made on demand; the server holds the ones its routes use.
extension SimulatedStore {
    public nonisolated var serverAPI: AppStoreServerAPI { AppStoreServerAPI(self) }
    public nonisolated var massExtensions: MassExtensions { MassExtensions(self) }
    public nonisolated var retention: RetentionMessaging { RetentionMessaging(self) }
    public nonisolated var notifications: ServerNotifications { ServerNotifications(self) }
    public nonisolated var signing: SigningRecords { SigningRecords(self) }
    public nonisolated var serverSettings: ServerSettings { ServerSettings(self) }
    public nonisolated var idempotencyKeys: IdempotencyKeys { IdempotencyKeys(self) }
}

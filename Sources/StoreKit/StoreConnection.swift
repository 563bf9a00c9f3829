import Foundation
import LocalState
import SQLiteStore
import StoreClient
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSigning

/// The store an app's StoreKit calls reach, opened once per process at the first call, the way
/// StoreKit reaches the App Store: `STOREFRONT_STORE=http://HOST:PORT` (a `storefront serve`),
/// else the simulated store in this process on `STOREFRONT_STATE` (a state directory shared with
/// `storefront --state`) or on a new temporary one. An `SKTestSession` opens it first, on its
/// configuration file.
@_spi(Storefront) public actor StoreConnection {
    public static let shared = StoreConnection()

    private var opened: OpenedStore?
    private var opening: Task<OpenedStore, any Error>?
    /// The temporary state directory of the store open now, removed when another replaces it.
    private var temporary: URL?

    /// The store, opened from the environment on first use.
    public func store() async throws -> OpenedStore {
        if let opened { return opened }
        if let opening { return try await opening.value }
        let task = Task { try await Self.open(catalog: nil, environment: ProcessInfo.processInfo.environment) }
        opening = task
        defer { opening = nil }
        let store = try await task.value
        temporary = store.isTemporary ? store.stateDirectory : nil
        opened = store
        return store
    }

    /// A session's store: the catalog it was configured with, in a new temporary state directory
    /// unless the environment names a state directory or a served store. It replaces the store
    /// open before, as a new `SKTestSession` replaces Xcode's test environment.
    /// `environment`: the variables that choose the store, the process's unless a test says.
    public func open(catalog location: URL, environment: [String: String] = ProcessInfo.processInfo.environment)
        async throws -> OpenedStore
    {
        let store = try await Self.open(catalog: location, environment: environment)
        if let temporary, temporary != store.stateDirectory { try? FileManager.default.removeItem(at: temporary) }
        temporary = store.isTemporary ? store.stateDirectory : nil
        opened = store
        return store
    }

    static func open(catalog location: URL?, environment: [String: String]) async throws -> OpenedStore {
        if let url = environment["STOREFRONT_STORE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return try await OpenedStore.remote(url: url, environment: environment)
        }
        let catalogPath = location?.path ?? environment["STOREFRONT_CATALOG"] ?? "products.json"
        if let state = environment["STOREFRONT_STATE"].flatMap({ $0.isEmpty ? nil : $0 }) {
            return try await OpenedStore.local(
                directory: URL(fileURLWithPath: state), temporary: false, catalogPath: catalogPath,
                environment: environment)
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-storekit-\(UUID().uuidString.lowercased())")
        return try await OpenedStore.local(
            directory: directory, temporary: true, catalogPath: catalogPath, environment: environment)
    }
}

/// An opened store and what StoreKit needs beside it: the catalog, the account signed in, where
/// it buys, and the root its signed transactions are checked against.
@_spi(Storefront) public struct OpenedStore: Sendable {
    public let backend: any StoreBackend & SignedTransactionSource
    /// The store's identity (`StoreBackend.storeId`).
    public let storeID: String
    public let catalog: Catalog
    public let account: Account
    public let storefront: StoreKitModel.Storefront
    public let verifier: ChainedJWSVerifier
    /// The state directory of a simulated store in this process; nil for a served one.
    public let stateDirectory: URL?
    /// The state directory was made for this process, and goes with the store.
    let isTemporary: Bool

    static func local(directory: URL, temporary: Bool, catalogPath: String, environment: [String: String])
        async throws -> OpenedStore
    {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let state = StateDirectory(url: directory, option: "STOREFRONT_STATE")
        _ = try state.tightenPermissions()
        let catalog = try await CatalogLoader.load(from: catalogPath, fetcher: nil)
        let store = try SimulatedStore(
            catalog: catalog, database: StoreDatabase(storage: SQLiteStorage.store(in: state)))
        try await store.resume()
        return try await opened(
            store, catalog: catalog, environment: environment, directory: directory, temporary: temporary)
    }

    /// A served store, with the catalog it serves: a session's configuration file names the
    /// products only where the store is in this process.
    static func remote(url: String, environment: [String: String]) async throws -> OpenedStore {
        let base = url.hasSuffix("/") ? String(url.dropLast()) : url
        var policy = RetryPolicy.standard
        if let seconds = environment["STOREFRONT_RETRY_SECONDS"].flatMap(Double.init), seconds >= 0, seconds <= 3600 {
            policy.budget = .milliseconds(Int64(seconds * 1000))
        }
        let catalog: Catalog
        do {
            catalog = try await CatalogLoader.load(
                from: "\(base)/v1/catalog", retryingFor: policy.budget, fetcher: HTTPCatalogFetcher())
        } catch {
            throw StoreFailure(
                "STOREFRONT_STORE \(URLCredentials.redacted(base)): no catalog from the store (\(error)); is `storefront serve` running there?",
                kind: .unavailable)
        }
        let token = environment["STOREFRONT_ADMIN_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        let probe = RemoteStore(url: base, catalog: catalog, adminToken: token, policy: policy)
        let name = accountName(catalog: catalog, controls: try await probe.controls(), environment: environment)
        let store = RemoteStore(url: base, catalog: catalog, adminToken: token, followedAccount: name, policy: policy)
        return try await opened(store, catalog: catalog, environment: environment, directory: nil, temporary: false)
    }

    static func opened(
        _ store: any StoreBackend & SignedTransactionSource, catalog: Catalog, environment: [String: String],
        directory: URL?, temporary: Bool
    ) async throws -> OpenedStore {
        let controls = try await store.controls()
        let name = accountName(catalog: catalog, controls: controls, environment: environment)
        guard let account = catalog.account(named: name) else {
            throw StoreFailure("STOREFRONT_ACCOUNT \(name): not an account of the catalog", kind: .invalid)
        }
        let storefront =
            catalog.storefront(id: controls.storefront ?? account.storefront)
            ?? catalog.storefront(id: catalog.defaultStorefront)
            ?? StoreKitModel.Storefront(id: "USA", currency: "USD", locale: "en_US")
        return OpenedStore(
            backend: store, storeID: try await store.storeId(), catalog: catalog, account: account,
            storefront: storefront,
            verifier: ChainedJWSVerifier(root: try await store.signingRoot()), stateDirectory: directory,
            isTemporary: temporary)
    }

    /// `STOREFRONT_ACCOUNT`, else the store's account setting, else the catalog's first.
    static func accountName(catalog: Catalog, controls: TestControls, environment: [String: String]) -> String {
        environment["STOREFRONT_ACCOUNT"].flatMap { $0.isEmpty ? nil : $0 } ?? controls.account
            ?? catalog.defaultAccount.name
    }

    /// Where the account buys now: the store's storefront setting (a session's `storefront`),
    /// else the account's own.
    public func storefrontNow() async throws -> StoreKitModel.Storefront {
        let controls = try await backend.controls()
        return catalog.storefront(id: controls.storefront ?? account.storefront) ?? storefront
    }

    /// The locale prices are shown in: the catalog's, else the storefront's own.
    public func locale(in storefront: StoreKitModel.Storefront) -> String {
        catalog.settings.locale ?? storefront.locale
    }

    /// The store's time: the simulated store's clock, else this machine's.
    var now: Date { (backend as? SimulatedStore)?.clock.now() ?? Date() }
}

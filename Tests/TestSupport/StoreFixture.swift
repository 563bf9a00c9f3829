import Foundation
import LocalState
import PostgresStore
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel

/// A simulated store on the repository's products.json in a fresh temporary state directory,
/// with a clock the test moves by hand.
public struct StoreFixture {
    public static let gems = "com.example.storefront.gems.100"
    public static let removeAds = "com.example.storefront.removeads"
    public static let monthly = "com.example.storefront.premium.monthly"
    public static let plusMonthly = "com.example.storefront.premiumplus.monthly"
    public static let lifetime = "com.example.storefront.pro.lifetime"
    public static let removed = "com.example.storefront.levels.classic"
    /// One year; also offered monthly with a 12-month commitment outside the United States.
    public static let yearly = "com.example.storefront.premium.yearly"

    public let store: SimulatedStore
    public let clock: ManualClock
    public let directory: URL

    /// `catalog`: the repository's products.json unless given.
    public init(directory: URL? = nil, catalog: Catalog? = nil) throws {
        let catalog = try catalog ?? Self.catalog()
        self.directory = directory ?? scratchDirectory("store")
        clock = ManualClock()
        store = try SimulatedStore(catalog: catalog, database: Self.database(in: self.directory), clock: clock)
    }

    /// Where a fixture's store keeps its tables: a fresh schema of the PostgreSQL database that
    /// `STOREFRONT_TEST_POSTGRES` names (the conformance run, `.ci/run`), else `store.sqlite` in
    /// `directory`.
    public static func database(in directory: URL) throws -> StoreDatabase {
        guard let url = testPostgres else {
            return try StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: directory)))
        }
        // One schema per directory, so a store reopened on the same directory finds its tables.
        let schema =
            "test_"
            + String(
                directory.standardizedFileURL.path.utf8.reduce(UInt64(14_695_981_039_346_656_037)) {
                    ($0 ^ UInt64($1)) &* 1_099_511_628_211
                }, radix: 16)
        return StoreDatabase(
            storage: try PostgresStorage(
                PostgresLocation(url), migrations: PostgresStorage.storeMigrations, poolSize: 2, schema: schema))
    }

    /// The PostgreSQL server the conformance run puts every fixture's store on; nil: SQLite.
    public static let testPostgres = ProcessInfo.processInfo.environment["STOREFRONT_TEST_POSTGRES"].flatMap {
        $0.isEmpty ? nil : $0
    }

    /// The repository's products.json.
    public static func catalog() throws -> Catalog {
        try CatalogLoader.decode(
            Array(try Data(contentsOf: repositoryRoot.appendingPathComponent("products.json"))), source: "products.json"
        )
    }

    /// The directory of Package.swift.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// Adds a payment and waits for the update that ends `purchasing`.
    public func buy(
        _ productId: String, account: String = "alice", quantity: Int = 1, order: String? = nil,
        plan: BillingPlanType? = nil
    ) async throws -> TransactionUpdate {
        let updates = await store.updates()
        let started = try await store.add(
            Payment(
                productId: productId, quantity: quantity, applicationUsername: order, account: account,
                billingPlan: plan))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            return update
        }
        throw StoreFailure("the update stream ended before \(started.id) completed")
    }

    /// Time passes, and the process's scheduler takes its next look (renewals, expiries,
    /// timed notifications), as the server's maintenance and the terminal app's loop do.
    public func pass(_ seconds: TimeInterval) async throws {
        clock.advance(by: seconds)
        try await store.scheduler.runDue()
    }

    public func setControls(_ change: (inout TestControls) -> Void) async throws {
        var controls = try await store.controls()
        change(&controls)
        try await store.setControls(controls)
    }
}

extension StoreFixture {
    /// Whether this is the conformance run on PostgreSQL: a test of the SQLite file under the
    /// store (its damage, its durability, its migrations) is disabled there.
    public static var onPostgres: Bool { testPostgres != nil }
}

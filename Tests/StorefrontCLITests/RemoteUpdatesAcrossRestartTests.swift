import Foundation
import StoreClient
import StoreKitModel
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A subscriber to a remote store's updates that starts while the server is down must not miss the
/// updates of a payment made once it is back (found by the chaos run: a `buy` started while its
/// server restarted waited forever for its own purchase, because the poller began "from now" only
/// after the purchase had completed).
@Suite(.serialized) struct RemoteUpdatesAcrossRestartTests {
    @Test func updatesSubscribedWhileTheServerIsDownIncludeAPaymentMadeWhenItIsBack() async throws {
        let root = scratchDirectory("storefront-e2e")
        let db = root.appendingPathComponent("server")
        let token = "restart-admin-token-0123456789"
        let first = try ServeProcess.start(db: db, arguments: ["--admin-token", token])
        let port = first.port
        #expect(first.signal(SIGKILL))

        let catalog = try CatalogLoader.decode(
            Array(try Data(contentsOf: Executable.repositoryRoot.appendingPathComponent("products.json"))),
            source: "products.json")
        let store = RemoteStore(
            url: first.baseURL, catalog: catalog, adminToken: token, followedAccount: "alice",
            policy: RetryPolicy(budget: .seconds(30)))
        let subscribing = Task { await store.updates() }
        try await Task.sleep(for: .seconds(1.5))
        let second = try ServeProcess.start(db: db, port: port, arguments: ["--admin-token", token])
        defer { second.stop() }
        let updates = await subscribing.value
        // Paid at once, before a poller that lost its start could ask again for "now".
        let started = try await store.add(
            Payment(productId: "com.example.storefront.gems.100", quantity: 1, account: "alice"))
        let done = Task { () -> TransactionState? in
            for await update in updates
            where update.transaction.id == started.id && update.transaction.state != .purchasing {
                return update.transaction.state
            }
            return nil
        }
        let timeout = Task {
            try await Task.sleep(for: .seconds(30))
            done.cancel()
        }
        defer { timeout.cancel() }
        let state = await done.value
        #expect(state == .purchased, "the subscriber never saw payment \(started.id) complete")
    }
}

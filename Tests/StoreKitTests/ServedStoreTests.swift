import Foundation
@_spi(Storefront) import StoreKit
@_spi(Storefront) import StoreKitTest
import TestSupport
import Testing

extension StoreKitLibrary {
    /// The same StoreKit calls against `storefront serve`, as `STOREFRONT_STORE` chooses it: the
    /// served store's JWS, checked by the app against the served root and by Apple's own
    /// `SignedDataVerifier` as a backend checks them.
    @Suite struct ServedStoreTests {
        static let token = "storekit-served-admin-token-0123"

        @Test func anAppsPurchaseAtAServedStoreVerifiesWithApplesLibrary() async throws {
            let root = scratchDirectory("storekit-served")
            let server = try ServeProcess.start(
                db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
            defer { server.stop() }
            let session = try session(["STOREFRONT_STORE": server.baseURL, "STOREFRONT_ADMIN_TOKEN": Self.token])
            session.clearTransactions()
            let removeAds = try #require(try await Product.products(for: [Products.removeAds]).first)
            guard case .success(.verified(let transaction)) = try await removeAds.purchase() else {
                Issue.record("expected a verified purchase at the served store")
                return
            }
            #expect(transaction.environment == .sandbox)
            #expect(await removeAds.currentEntitlement != nil)
            await transaction.finish()
            #expect(await collect(Transaction.unfinished).isEmpty)

            let jws = try #require(await removeAds.latestTransaction?.jwsRepresentation)
            let rootFile = root.appendingPathComponent("root.cer")
            let download = try Executable.run(
                ["-sf", "-o", rootFile.path, server.baseURL + "/.well-known/storefront-root-ca.cer"], program: "curl")
            try #require(download.status == 0, "\(download.stderr)")
            let verified = try Executable.run(python: [
                repositoryRoot.appendingPathComponent("Tests/Python/verify_signed_data.py").path, rootFile.path,
                "com.example.storefront.demo", jws,
            ])
            #expect(verified.status == 0, "\(verified.stderr)")
            #expect(verified.stdout.contains("verified \(transaction.id) \(Products.removeAds)"), "\(verified.stdout)")
        }

        /// A tester at another terminal sends a message and starts a purchase on the App Store
        /// (`storefront manage … --store URL`); the app that polls the served store hears each once.
        @Test func aMessageAndAPurchaseIntentSentToAServedStoreReachTheAppOnce() async throws {
            let root = scratchDirectory("storekit-served-messages")
            let server = try ServeProcess.start(
                db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
            defer { server.stop() }
            _ = try session(["STOREFRONT_STORE": server.baseURL, "STOREFRONT_ADMIN_TOKEN": Self.token])
            let messages = Collected(Message.messages)
            let intents = Collected(PurchaseIntent.intents)
            defer {
                messages.stop()
                intents.stop()
            }
            let store = ["--store", server.baseURL, "--admin-token", Self.token, "--account", "alice"]
            let sent = try Executable.run(["manage", "message", "generic"] + store)
            #expect(sent.status == 0, "\(sent.stderr)")
            let started = try Executable.run(["manage", "purchase-intent", Products.removeAds] + store)
            #expect(started.status == 0, "\(started.stderr)")
            #expect(try await eventually { messages.all.map(\.reason) == [.generic] })
            #expect(try await eventually { intents.all.map(\.id) == [Products.removeAds] })
            guard case .success(.verified(let transaction)) = try await intents.all[0].product.purchase() else {
                Issue.record("expected the promoted purchase to complete at the served store")
                return
            }
            #expect(transaction.productID == Products.removeAds)
            try await Task.sleep(for: .milliseconds(600))
            #expect(messages.all.count == 1 && intents.all.count == 1)
        }

        @Test func aSubscriptionsStatusAndTheAppTransactionAtAServedStoreVerifyWithApplesLibrary() async throws {
            let root = scratchDirectory("storekit-served-status")
            let server = try ServeProcess.start(
                db: root.appendingPathComponent("server"), arguments: ["--admin-token", Self.token])
            defer { server.stop() }
            let session = try session(["STOREFRONT_STORE": server.baseURL, "STOREFRONT_ADMIN_TOKEN": Self.token])
            session.clearTransactions()
            let monthly = try #require(try await Product.products(for: [Products.monthly]).first)
            guard case .success(.verified(let first)) = try await monthly.purchase() else {
                Issue.record("expected a verified purchase at the served store")
                return
            }
            await first.finish()
            let subscription = try #require(monthly.subscription)
            let status = try #require(try await subscription.status.first)
            guard case .verified(let info) = status.renewalInfo, case .verified = status.transaction else {
                Issue.record("expected verified renewal info and transaction from the served store")
                return
            }
            #expect(status.state == .subscribed && info.environment == .sandbox)
            #expect(info.originalTransactionID == first.originalID && info.willAutoRenew)
            guard case .verified(let app) = try await AppTransaction.shared else {
                Issue.record("expected a verified app transaction from the served store")
                return
            }
            #expect(app.appTransactionID == first.appTransactionID && app.environment == .sandbox)

            let rootFile = root.appendingPathComponent("root.cer")
            let download = try Executable.run(
                ["-sf", "-o", rootFile.path, server.baseURL + "/.well-known/storefront-root-ca.cer"], program: "curl")
            try #require(download.status == 0, "\(download.stderr)")
            let script = repositoryRoot.appendingPathComponent("Tests/Python/verify_signed_data.py").path
            let renewal = try Executable.run(python: [
                script, "--kind", "renewal-info", rootFile.path, "com.example.storefront.demo",
                status.renewalInfo.jwsRepresentation,
            ])
            #expect(renewal.status == 0, "\(renewal.stderr)")
            #expect(
                renewal.stdout.contains("verified renewal info \(first.originalID) \(Products.monthly)"),
                "\(renewal.stdout)")
            let appJWS = try await AppTransaction.shared.jwsRepresentation
            let verifiedApp = try Executable.run(python: [
                script, "--kind", "app-transaction", rootFile.path, "com.example.storefront.demo", appJWS,
            ])
            #expect(verifiedApp.status == 0, "\(verifiedApp.stderr)")
            #expect(
                verifiedApp.stdout.contains("verified app transaction \(app.appTransactionID)"), "\(verifiedApp.stdout)"
            )
        }
    }
}

import AppSide
import Foundation
import LocalState
import SQLiteStore
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// The careful app: orders, deliveries once per transaction id, verification with backoff,
/// pending-payment warnings, entitlements.
@Suite struct AppSideTests {
    struct App {
        let fixture: StoreFixture
        let ledger: AppLedger
        let observer: PurchaseObserver

        /// `device`: the app's state directory, the store's by default (the simulated store in process).
        init(_ fixture: StoreFixture, device: URL? = nil) throws {
            self.fixture = fixture
            ledger = try AppLedger(state: StateDirectory(url: device ?? fixture.directory)).bound(
                to: fixture.store.storeId()
            ).ledger
            observer = PurchaseObserver(
                store: fixture.store, ledger: ledger, catalog: fixture.store.catalog, clock: fixture.clock)
        }

        /// Places the order, adds the payment and handles the update that ends `purchasing`.
        func buy(_ productId: String, account: String = "alice", quantity: Int = 1, stopAfterDelivery: Bool = false)
            async throws -> (TransactionUpdate, [AppStep])
        {
            let updates = await fixture.store.updates()
            let started = try await observer.buy(Payment(productId: productId, quantity: quantity, account: account))
            for await update in updates
            where update.transaction.id == started.id && update.transaction.state != .purchasing {
                return (update, try await observer.handle(update, stopAfterDelivery: stopAfterDelivery))
            }
            throw StoreFailure("the update stream ended before \(started.id) completed")
        }
    }

    /// A non-renewing subscription's term is the app's: the store signs no expiry for it, and
    /// buying it again before the term ends extends the term from its end.
    @Test func aSeasonPassBoughtAgainExtendsTheAppsTerm() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        let pass = "com.example.storefront.pass.season"
        let period = try #require(fixture.store.catalog.product(id: pass)?.subscription?.period)
        let (first, _) = try await app.buy(pass)
        #expect(first.transaction.terms?.price ?? 0 > 0)
        #expect(first.transaction.terms?.expirationDate == nil, "Apple's transaction carries no non-renewing expiry")
        fixture.clock.advance(by: 86_400)
        let (second, _) = try await app.buy(pass)
        #expect(second.transaction.terms?.price == first.transaction.terms?.price, "bought again, charged again")
        let firstEnd = TimeRate.realTime.end(of: period, from: first.transaction.purchaseDate)
        let terms = try app.ledger.nonRenewingTerms(account: "alice", catalog: fixture.store.catalog, rate: .realTime)
        #expect(terms == [pass: TimeRate.realTime.end(of: period, from: firstEnd)])
        let shown = try app.ledger.withAppTerms(
            try await fixture.store.entitlements(account: "alice"), account: "alice", catalog: fixture.store.catalog,
            rate: .realTime)
        #expect(shown.first { $0.productId == pass }?.expiresDate == terms[pass])
    }

    @Test func consumableIsCreditedOncePerTransactionEvenWhenHandledTwice() async throws {
        let app = try App(try StoreFixture())
        let (update, steps) = try await app.buy(StoreFixture.gems, quantity: 3)
        #expect(
            steps == [
                .delivered(transactionId: update.transaction.id, firstTime: true),
                .verified(transactionId: update.transaction.id),
                .finished(transactionId: update.transaction.id),
            ])
        #expect(try app.ledger.balances(account: "alice") == ["gems": 300])
        // A finish that "failed" re-delivers the same transaction: nothing is credited again.
        let again = try await app.observer.handle(update)
        #expect(again.first == .delivered(transactionId: update.transaction.id, firstTime: false))
        #expect(try app.ledger.balances(account: "alice") == ["gems": 300])
        #expect(try app.ledger.deliveryCount(transactionId: update.transaction.id) == 1)
    }

    /// A device that moves to another store (a fresh server, or from the simulated store to a
    /// server) meets the same transaction ids again: every store numbers from 2000000000000001.
    /// Each store's purchase is delivered, the change is said once, and no credit is lost.
    @Test func aDeviceThatChangesStoreIsCreditedForEachStoresPurchases() async throws {
        let device = scratchDirectory("device")
        let first = try StoreFixture()
        let (bought, _) = try await App(first, device: device).buy(StoreFixture.gems)
        let second = try StoreFixture()
        let ledger = try AppLedger(state: StateDirectory(url: device))
        let (moved, change) = try ledger.bound(to: second.store.storeId())
        #expect(change == StoreChange(previous: first.store.storeId(), current: second.store.storeId()))
        #expect(try ledger.bound(to: second.store.storeId()).change == nil)  // said once
        let app = try App(second, device: device)
        let (again, steps) = try await app.buy(StoreFixture.gems)
        #expect(again.transaction.id == bought.transaction.id)
        #expect(steps.first == .delivered(transactionId: again.transaction.id, firstTime: true))
        #expect(try moved.balances(account: "alice") == ["gems": 200])
        // Back to the first store: its delivery is still known, nothing is credited twice.
        let back = try App(first, device: device)
        #expect(
            try await back.observer.handle(bought).first
                == .delivered(transactionId: bought.transaction.id, firstTime: false))
        #expect(try back.ledger.balances(account: "alice") == ["gems": 200])
    }

    /// A ledger written before stores had identities: the first store it meets takes its deliveries.
    @Test func theFirstStoreALedgerMeetsTakesItsEarlierDeliveries() async throws {
        let fixture = try StoreFixture()
        let device = scratchDirectory("device")
        let unbound = try AppLedger(state: StateDirectory(url: device))
        let observer = PurchaseObserver(
            store: fixture.store, ledger: unbound, catalog: fixture.store.catalog, clock: fixture.clock)
        let updates = await fixture.store.updates()
        let started = try await observer.buy(Payment(productId: StoreFixture.gems, account: "alice"))
        var completed: TransactionUpdate?
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            completed = update
            break
        }
        let update = try #require(completed)
        _ = try await observer.handle(update)
        let (bound, change) = try AppLedger(state: StateDirectory(url: device)).bound(to: fixture.store.storeId())
        #expect(change == nil)
        #expect(try bound.deliveryCount(transactionId: update.transaction.id) == 1)
        #expect(try bound.entry(transactionId: update.transaction.id)?.status == .finished)
    }

    /// Chaos run finding: two devices of one account both saw a transaction in the queue (the buyer
    /// crashed after delivering, or was still verifying) and both delivered it; the app server kept
    /// one claim and the other device kept its credit too: doubled. Now the device whose claim lost
    /// takes its delivery back, also when it learns so at its next launch, after the winner finished
    /// the transaction and the queue no longer offers it.
    @Test func twoDevicesOfOneAccountDeliverATransactionOnce() async throws {
        let fixture = try StoreFixture()
        let phone = try App(fixture)
        let tabletLedger = try AppLedger(state: StateDirectory(url: fixture.directory.appendingPathComponent("tablet")))
        let tablet = PurchaseObserver(
            store: fixture.store, ledger: tabletLedger, catalog: fixture.store.catalog, clock: fixture.clock)

        // The phone buys and crashes after delivering; the tablet launches, finds it in the queue, delivers and
        // verifies first.
        let (bought, _) = try await phone.buy(StoreFixture.gems, quantity: 2, stopAfterDelivery: true)
        let id = bought.transaction.id
        let queue = try await fixture.store.unfinished(account: "alice")
        #expect(queue.map(\.transaction.id) == [id])
        #expect(
            try await tablet.handle(queue[0]) == [
                .delivered(transactionId: id, firstTime: true), .verified(transactionId: id),
                .finished(transactionId: id),
            ])
        #expect(try tabletLedger.balances(account: "alice") == ["gems": 200])

        // The phone relaunches: the queue is empty, its ledger still has the unverified delivery.
        #expect(try await fixture.store.unfinished(account: "alice").isEmpty)
        let steps = try await phone.observer.recoverLedger(account: "alice", queue: [])
        #expect(steps == [.deliveredElsewhere(transactionId: id), .finished(transactionId: id)])
        #expect(try phone.ledger.balances(account: "alice") == ["gems": 0])
        #expect(try phone.ledger.deliveryCount(transactionId: id) == 0)
        #expect(try tabletLedger.deliveryCount(transactionId: id) == 1)
        #expect(try phone.ledger.entries(account: "alice", openOnly: true).isEmpty)
        // Nothing more at the next launch.
        #expect(try await phone.observer.recoverLedger(account: "alice", queue: []).isEmpty)

        // Both deliver before either verifies; the first to verify keeps it, the other gives it back in the same run.
        let (second, _) = try await phone.buy(StoreFixture.gems, stopAfterDelivery: true)
        let other = try #require(try await fixture.store.unfinished(account: "alice").first)
        _ = try await tablet.handle(other, stopAfterDelivery: true)
        #expect(
            try await phone.observer.handle(second).suffix(2) == [
                .verified(transactionId: second.transaction.id), .finished(transactionId: second.transaction.id),
            ])
        #expect(
            try await tablet.handle(other).suffix(2) == [
                .deliveredElsewhere(transactionId: other.transaction.id),
                .finished(transactionId: other.transaction.id),
            ])
        #expect(try phone.ledger.balances(account: "alice") == ["gems": 100])
        #expect(try tabletLedger.balances(account: "alice") == ["gems": 200])
    }

    @Test func emptyApplicationUsernameIsMatchedByAccountAndProduct() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        try await fixture.setControls { $0.dropOrderIds = true }
        let (first, steps) = try await app.buy(StoreFixture.removeAds)
        #expect(first.transaction.payment.applicationUsername == nil)
        let entry = try #require(try app.ledger.entry(transactionId: first.transaction.id))
        #expect(entry.matchedBy == .accountAndProduct)
        let orderId = try #require(entry.orderId)
        #expect(steps.contains(.orderMatched(transactionId: first.transaction.id, orderId: orderId)))
        // The next purchase of the same product takes the next open order, never the matched one.
        let (second, _) = try await app.buy(StoreFixture.removeAds)
        let secondOrder = try #require(try app.ledger.entry(transactionId: second.transaction.id)?.orderId)
        #expect(secondOrder != orderId)
    }

    @Test func orderIdThatComesBackIsUsedAsIs() async throws {
        let app = try App(try StoreFixture())
        let (update, steps) = try await app.buy(StoreFixture.gems)
        let entry = try #require(try app.ledger.entry(transactionId: update.transaction.id))
        #expect(entry.matchedBy == .orderId)
        #expect(entry.orderId == update.transaction.payment.applicationUsername)
        #expect(!steps.contains { if case .orderMatched = $0 { true } else { false } })
    }

    @Test func unreachableServerKeepsThePaymentAndRetriesWithBackoff() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        try await fixture.setControls { $0.verificationFailure = .unreachable }
        let (update, steps) = try await app.buy(StoreFixture.gems)
        let id = update.transaction.id
        #expect(
            steps.last
                == .verificationDeferred(
                    transactionId: id, reason: "the verification server is unreachable",
                    nextAttempt: fixture.clock.now().addingTimeInterval(1)))
        #expect(try await fixture.store.unfinished(account: "alice").map(\.transaction.id) == [id])
        // Not due yet: nothing happens. Due: tried again, still down, the wait doubles.
        #expect(try await app.observer.retryDue(account: "alice").isEmpty)
        fixture.clock.advance(by: 1)
        _ = try await app.observer.retryDue(account: "alice")
        let entry = try #require(try app.ledger.entry(transactionId: id))
        #expect(entry.attempts == 2)
        #expect(entry.nextAttempt == fixture.clock.now().addingTimeInterval(2))
        // The server comes back; a new ledger on the same files (a restart) finishes the job.
        try await fixture.setControls { $0.verificationFailure = nil }
        fixture.clock.advance(by: 2)
        let restarted = try App(fixture)
        let retried = try await restarted.observer.retryDue(account: "alice")
        #expect(retried.suffix(2) == [.verified(transactionId: id), .finished(transactionId: id)])
        #expect(try await fixture.store.unfinished(account: "alice").isEmpty)
        #expect(try restarted.ledger.balances(account: "alice") == ["gems": 100])
    }

    @Test func backoffDoublesFromOneSecondUpToFiveMinutes() {
        #expect((0...10).map(VerificationBackoff.delay(afterAttempts:)) == [0, 1, 2, 4, 8, 16, 32, 64, 128, 256, 300])
        #expect(VerificationBackoff.delay(afterAttempts: 10_000) == 300)
    }

    @Test func pendingPaymentsNameWhatTheAppWaitsFor() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        let (deferred, _) = try await app.buy(StoreFixture.removeAds, account: "kid")
        _ = try await fixture.store.perform(.approveAskToBuy(deferred.transaction.id))
        try await fixture.setControls { $0.verificationFailure = .unreachable }
        let (unverified, _) = try await app.buy(StoreFixture.gems)
        try await fixture.setControls { $0.verificationFailure = nil }
        let (crashed, _) = try await app.buy(StoreFixture.monthly, stopAfterDelivery: true)

        let kid = try await app.observer.pending(account: "kid")
        #expect(kid.map(\.transactionId) == [deferred.transaction.id])
        #expect(kid.first?.reason == .unfinished)  // approved while the app was away: not delivered yet
        let alice = try await app.observer.pending(account: "alice")
        #expect(alice.map(\.transactionId) == [unverified.transaction.id, crashed.transaction.id])
        #expect(
            alice.first?.reason
                == .awaitingVerification(
                    attempts: 1, lastError: "the verification server is unreachable",
                    nextAttempt: fixture.clock.now().addingTimeInterval(1)))
        #expect(alice.last?.reason == .awaitingVerification(attempts: 0, lastError: nil, nextAttempt: nil))
        #expect(
            PendingPayment.blocking(StoreFixture.monthly, in: alice).map(\.transactionId) == [crashed.transaction.id])
        #expect(PendingPayment.blocking(StoreFixture.removeAds, in: alice).isEmpty)
    }

    @Test func deferredAndFailedPaymentsInThePendingList() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        let (deferred, _) = try await app.buy(StoreFixture.gems, account: "kid")
        try await fixture.setControls { $0.nextOutcome = .fail(.paymentNotAllowed) }
        let updates = await fixture.store.updates()
        let failed = try await fixture.store.add(Payment(productId: StoreFixture.gems, account: "kid"))
        for await update in updates where update.transaction.id == failed.id && update.transaction.state == .failed {
            break
        }
        let pending = try await app.observer.pending(account: "kid")
        // The failed one charged nothing: it is not a pending payment, even while unfinished.
        #expect(pending.map(\.transactionId) == [deferred.transaction.id])
        #expect(pending.first?.reason == .awaitingApproval)
        #expect(pending.first?.waitingFor.contains("Ask to Buy") == true)
    }

    @Test func entitlementsListOwnedItemsAndEachSubscriptionsLatestPeriod() async throws {
        let fixture = try StoreFixture()
        let app = try App(fixture)
        _ = try await app.buy(StoreFixture.gems)
        let (ads, _) = try await app.buy(StoreFixture.removeAds)
        let (monthly, _) = try await app.buy(StoreFixture.monthly)
        let (again, _) = try await app.buy(StoreFixture.removeAds)  // owned already: no second entitlement
        let entitlements = try await fixture.store.entitlements(account: "alice")
        #expect(entitlements.map(\.productId) == [StoreFixture.removeAds, StoreFixture.monthly])
        #expect(entitlements.first?.transactionId == ads.transaction.id)
        #expect(entitlements.last?.willAutoRenew == true)
        #expect(entitlements.last?.isActive(at: fixture.clock.now()) == true)
        // A restore must not look like a newer period, nor stop the chain from renewing.
        _ = try await fixture.store.restore(account: "alice")
        try await fixture.pass(32 * 86_400)
        let renewed = try await fixture.store.entitlements(account: "alice")
        let subscription = try #require(renewed.last)
        #expect(subscription.originalTransactionId == monthly.transaction.id)
        #expect(subscription.transactionId != monthly.transaction.id)
        #expect(subscription.isActive(at: fixture.clock.now()))
        // Refunded: no entitlement; the re-download was not a purchase, and its refund is the paid one's.
        _ = try await fixture.store.perform(.refund(ads.transaction.id))
        #expect(try await fixture.store.entitlements(account: "alice").map(\.productId) == [StoreFixture.monthly])
        let error = await #expect(throws: StoreFailure.self) {
            try await fixture.store.perform(.refund(again.transaction.id))
        }
        #expect(error?.message.contains("\(ads.transaction.id) was already refunded") == true)
    }

    @Test func perCommandStorefrontDoesNotPersist() async throws {
        let fixture = try StoreFixture()
        let japan = try SimulatedStore(
            catalog: fixture.store.catalog,
            database: StoreDatabase(storage: SQLiteStorage.store(in: StateDirectory(url: fixture.directory))),
            clock: fixture.clock, storefrontOverride: "JPN")
        let response = try await japan.products(ids: [StoreFixture.gems], storefront: nil)
        #expect(response.storefront.id == "JPN")
        #expect(try await fixture.store.controls().storefront == nil)
        #expect(try await fixture.store.products(ids: [StoreFixture.gems], storefront: nil).storefront.id == "USA")
    }
}

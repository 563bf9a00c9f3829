import Foundation
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Xcode 26's "create a transaction" made outside the device: a purchase dated in the past, and
/// what followed from that date under the time rate (renewals, or the expiry with auto-renew off),
/// told to the app as unfinished updates and to servers as the App Store told them.
@Suite struct CreateTransactionTests {
    static let url = "http://127.0.0.1:9/notifications"

    static func monthsBefore(_ date: Date, _ months: Int) throws -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return try #require(calendar.date(byAdding: .month, value: -months, to: date))
    }

    func told(_ fixture: StoreFixture) async throws -> [NotificationEvent] {
        try await fixture.store.notifications.recent(limit: 1000).map(\.notification)
            .sorted { $0.sequence < $1.sequence }.map(\.event)
    }

    /// Each period starts where the one before it ended: the chain as a sweep would have made it.
    func expectOneChain(_ updates: [TransactionUpdate], from date: Date) {
        let transactions = updates.map(\.transaction)
        #expect(transactions.first?.purchaseDate == date)
        #expect(Set(transactions.map(\.originalId)) == [transactions.first?.id])
        #expect(transactions.allSatisfy { $0.state == .purchased && !$0.finished })
        for (previous, next) in zip(transactions, transactions.dropFirst()) {
            #expect(next.purchaseDate == previous.terms?.expirationDate)
            #expect(next.terms?.isRenewal == true)
        }
    }

    @Test func aSubscriptionBoughtElevenMonthsAgoRenewsUpToNow() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        let now = fixture.clock.now()
        let date = try Self.monthsBefore(now, 11)
        let token = UUID()
        let updates = try await fixture.store.perform(
            .createTransaction(
                TransactionCreation(
                    productId: StoreFixture.monthly, account: "kenji", purchaseDate: date, appAccountToken: token)))
        // A week's free trial (kenji never subscribed), then a month at a time: 11 renewals.
        #expect(updates.count == 12)
        expectOneChain(updates, from: date)
        #expect(updates.first?.transaction.terms?.offer?.type == .introductory)
        let latest = try #require(updates.last?.transaction)
        #expect(try #require(latest.terms?.expirationDate) > now)
        #expect(try #require(latest.terms?.expirationDate) <= now.addingTimeInterval(31 * 86_400))
        let details = try await fixture.store.details(transactionIds: updates.map(\.transaction.id))
        #expect(details.values.allSatisfy { $0.appAccountToken == token }, "renewals keep the token")
        let unfinished = try await fixture.store.unfinished(account: "kenji").map(\.transaction.id)
        #expect(Set(unfinished) == Set(updates.map(\.transaction.id)), "the app must deliver and finish each")
        let events = try await told(fixture)
        #expect(events.first == NotificationEvent(.subscribed, .initialBuy))
        #expect(events.dropFirst() == ArraySlice(Array(repeating: NotificationEvent(.didRenew), count: 11)))
        // Caught up: the next sweep has nothing to renew.
        try await fixture.pass(1)
        #expect(try await fixture.store.transactions(account: "kenji").count == 12)
    }

    @Test func underAFasterTimeRateThePeriodsAreThatRatesMinutes() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .monthlyRenewalEvery5Minutes }
        let now = fixture.clock.now()
        // 57 minutes: a 3-minute week of free trial, then a 5-minute month at a time.
        let date = now.addingTimeInterval(-57 * 60)
        let updates = try await fixture.store.perform(
            .createTransaction(
                TransactionCreation(productId: StoreFixture.monthly, account: "lena", purchaseDate: date)))
        #expect(updates.count == 12)
        expectOneChain(updates, from: date)
        #expect(updates.dropFirst().first?.transaction.purchaseDate == date.addingTimeInterval(3 * 60))
        #expect(updates.last?.transaction.terms?.expirationDate == date.addingTimeInterval(3 * 60 + 11 * 5 * 60))
    }

    @Test func withAutoRenewOffItExpiresAfterItsFirstPeriod() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        let now = fixture.clock.now()
        let date = try Self.monthsBefore(now, 4)
        let updates = try await fixture.store.perform(
            .createTransaction(
                TransactionCreation(
                    productId: StoreFixture.yearly, account: "oliver", purchaseDate: date, autoRenew: false)))
        #expect(updates.map(\.transaction.state) == [.purchased])
        let created = try #require(updates.first?.transaction)
        #expect(try #require(created.terms?.expirationDate) < now, "a 3-month introductory period, over")
        let entitlement = try #require(try await fixture.store.entitlements(account: "oliver").first)
        #expect(!entitlement.willAutoRenew && entitlement.expiresDate == created.terms?.expirationDate)
        #expect(
            try await told(fixture) == [
                NotificationEvent(.subscribed, .initialBuy),
                NotificationEvent(.didChangeRenewalStatus, .autoRenewDisabled), NotificationEvent(.expired, .voluntary),
            ])
        try await fixture.pass(1)
        #expect(try await fixture.store.transactions(account: "oliver").count == 1, "nothing renews")
        #expect(try await told(fixture).count == 3, "the expiry is told once")
    }

    @Test func aOneTimePurchaseIsJustDatedInThePast() async throws {
        let fixture = try StoreFixture()
        fixture.store.outbox.setURLs([Self.url])
        let date = fixture.clock.now().addingTimeInterval(-86_400 * 40)
        for product in [StoreFixture.removeAds, StoreFixture.gems, "com.example.storefront.pass.season"] {
            let updates = try await fixture.store.perform(
                .createTransaction(TransactionCreation(productId: product, account: "wei", purchaseDate: date)))
            let transaction = try #require(updates.first?.transaction)
            #expect(updates.count == 1 && transaction.purchaseDate == date && transaction.state == .purchased)
            #expect(transaction.terms?.expirationDate == nil && !transaction.finished)
        }
        #expect(try await told(fixture) == Array(repeating: NotificationEvent(.oneTimeCharge), count: 3))
        #expect(try await fixture.store.entitlements(account: "wei").map(\.productId).contains(StoreFixture.removeAds))
    }

    @Test func aFutureDateAnUnknownProductOrOfferIsRefused() async throws {
        let fixture = try StoreFixture()
        let now = fixture.clock.now()
        let past = now.addingTimeInterval(-86_400)
        let refusals: [(TransactionCreation, String)] = [
            (
                TransactionCreation(productId: StoreFixture.gems, account: "alice", purchaseDate: now + 60),
                "is in the future"
            ),
            (TransactionCreation(productId: "com.example.nope", account: "alice", purchaseDate: past), "no product"),
            (
                TransactionCreation(productId: StoreFixture.gems, account: "mallory", purchaseDate: past),
                "unknown account mallory"
            ),
            (
                TransactionCreation(
                    productId: StoreFixture.monthly, account: "alice", purchaseDate: past, offerId: "nope"),
                "has no offer nope (its offers: com.example.storefront.premium.halfprice"
            ),
            (
                TransactionCreation(
                    productId: StoreFixture.monthly, account: "alice", purchaseDate: past,
                    offerId: "com.example.storefront.premium.halfprice"),
                "could not take offer"
            ),
        ]
        for (creation, message) in refusals {
            await #expect {
                try await fixture.store.perform(.createTransaction(creation))
            } throws: { error in
                (error as? StoreFailure).map { $0.message.contains(message) } ?? false
            }
        }
        #expect(try await fixture.store.transactions(account: nil).isEmpty, "nothing was written")
    }

    @Test func aGroupTheAccountHasActiveOrANonConsumableItOwnsIsRefused() async throws {
        let fixture = try StoreFixture()
        _ = try await fixture.buy(StoreFixture.monthly, account: "kenji")
        _ = try await fixture.buy(StoreFixture.removeAds, account: "kenji")
        let past = try Self.monthsBefore(fixture.clock.now(), 2)
        for (product, message) in [
            (StoreFixture.yearly, "already has an active subscription in the group premium"),
            (StoreFixture.removeAds, "already owns com.example.storefront.removeads"),
        ] {
            await #expect {
                try await fixture.store.perform(
                    .createTransaction(TransactionCreation(productId: product, account: "kenji", purchaseDate: past)))
            } throws: { error in
                guard let failure = error as? StoreFailure else { return false }
                return failure.kind == .conflict && failure.message.contains(message)
                    && failure.message.contains("kenji")
            }
        }
        #expect(try await fixture.store.transactions(account: "kenji").count == 2)
    }

    @Test func moreRenewalsThanASweepMakesAreRefused() async throws {
        let fixture = try StoreFixture()
        try await fixture.setControls { $0.timeRate = .oneRenewalEvery2Seconds }
        let date = fixture.clock.now().addingTimeInterval(-86_400)
        await #expect {
            try await fixture.store.perform(
                .createTransaction(
                    TransactionCreation(productId: StoreFixture.monthly, account: "ana", purchaseDate: date)))
        } throws: { error in
            (error as? StoreFailure)?.message.contains("choose a date after about") ?? false
        }
        #expect(try await fixture.store.transactions(account: "ana").isEmpty, "nothing was written")
    }
}

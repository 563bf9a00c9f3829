import Foundation
import LocalState
import StoreCore
import StoreKitModel
import TestSupport
import Testing

@testable import StoreEngine

/// `add(_:idempotency:respond:)`: a server's payment, its idempotency key and its answer in one commit.
@Suite struct IdempotentAddTests {
    struct RespondFailed: Error {}

    static func request(_ key: String, hash: String = "hash-1", lifetime: TimeInterval = 3600) -> IdempotentRequest {
        IdempotentRequest(key: key, requestHash: hash, lifetime: lifetime, now: Date())
    }

    static func answer(_ transaction: Transaction, _ details: TransactionDetails) -> StoredResponse {
        StoredResponse(
            status: 201,
            body: Data("\(transaction.id) \(transaction.state.name) \(details.price) \(details.currency)".utf8))
    }

    @Test func theFirstAnswerIsStoredWithTheKeyAndReplayed() async throws {
        let fixture = try StoreFixture()
        let payment = Payment(productId: StoreFixture.gems, quantity: 2, account: "alice")
        let first = try await fixture.store.add(payment, idempotency: Self.request("k1"), respond: Self.answer)
        guard case .answered(let stored, replayed: false) = first else {
            Issue.record("not a fresh answer: \(first)")
            return
        }
        #expect(String(decoding: stored.body, as: UTF8.self).contains("purchasing"))
        let again = try await fixture.store.add(payment, idempotency: Self.request("k1"), respond: Self.answer)
        #expect(again == .answered(stored, replayed: true))
        let other = try await fixture.store.add(
            payment, idempotency: Self.request("k1", hash: "hash-2"), respond: Self.answer)
        #expect(other == .mismatch)
        #expect(try await fixture.store.transactions(account: "alice").count == 1)
    }

    /// If building the answer fails, the reservation and the payment are rolled back with it: no
    /// charge without a stored answer, and the retry runs as the first request.
    @Test func aFailedAnswerKeepsNothing() async throws {
        let fixture = try StoreFixture()
        let payment = Payment(productId: StoreFixture.gems, account: "alice")
        await #expect(throws: RespondFailed.self) {
            _ = try await fixture.store.add(payment, idempotency: Self.request("k2")) { _, _ in throw RespondFailed() }
        }
        #expect(try await fixture.store.transactions(account: "alice").isEmpty)
        let retry = try await fixture.store.add(payment, idempotency: Self.request("k2"), respond: Self.answer)
        guard case .answered(_, replayed: false) = retry else {
            Issue.record("the retry was not run as a first request: \(retry)")
            return
        }
        #expect(try await fixture.store.transactions(account: "alice").count == 1)
    }

    /// The answer and the transaction survive a restart together (the same file, a new store).
    @Test func theAnswerIsDurableWithThePayment() async throws {
        let fixture = try StoreFixture()
        let payment = Payment(productId: StoreFixture.removeAds, account: "alice")
        let first = try await fixture.store.add(payment, idempotency: Self.request("k3"), respond: Self.answer)
        let reopened = try StoreFixture(directory: fixture.directory)
        guard case .answered(let stored, replayed: false) = first else {
            Issue.record("not a fresh answer: \(first)")
            return
        }
        #expect(
            try await reopened.store.add(payment, idempotency: Self.request("k3"), respond: Self.answer)
                == .answered(stored, replayed: true))
        #expect(try await reopened.store.transactions(account: "alice").count == 1)
    }

    /// A key whose answer was lost after its payment was stored (an older version's separate
    /// commits, then a crash) is retried as `pending`: the retry answers with that payment and
    /// charges nothing more. A pending key without a payment adds one.
    @Test func aPendingKeyFindsThePaymentItsFirstRequestAdded() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let payment = Payment(productId: StoreFixture.gems, account: "alice")
        guard case .reserved(let generation) = try await store.idempotencyKeys.reserve(Self.request("k4")) else {
            Issue.record("k4 was not fresh")
            return
        }
        let account = try store.validatedAccount(payment)
        let first = try await store.database.write { db in
            try store.insertPayment(
                payment, account: account, forced: nil, requestKey: "k4#\(generation)", at: Date(), db
            ).transaction
        }
        let retry = try await store.add(payment, idempotency: Self.request("k4"), respond: Self.answer)
        guard case .answered(let stored, replayed: false) = retry else {
            Issue.record("the retry was not answered: \(retry)")
            return
        }
        #expect(String(decoding: stored.body, as: UTF8.self).hasPrefix("\(first.id) purchasing"))
        #expect(try await store.transactions(account: "alice").map(\.id) == [first.id])

        guard case .reserved = try await store.idempotencyKeys.reserve(Self.request("k5")) else {
            Issue.record("k5 was not fresh")
            return
        }
        guard
            case .answered(_, replayed: false) = try await store.add(
                payment, idempotency: Self.request("k5"), respond: Self.answer)
        else {
            Issue.record("a pending key without a payment was not run")
            return
        }
        #expect(try await store.transactions(account: "alice").count == 2)
    }

    /// The hourly purge forgets the keys reserved before the cutoff, oldest first, and keeps the
    /// rest: a purged key is fresh again, a kept one still answers with its first response.
    @Test func thePurgeForgetsOnlyExpiredKeys() async throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let start = Date()
        func request(_ key: String, at minutes: Double) -> IdempotentRequest {
            IdempotentRequest(
                key: key, requestHash: "hash-1", lifetime: 3600, now: start.addingTimeInterval(minutes * 60))
        }
        for (index, key) in ["old-1", "old-2", "new-1", "new-2"].enumerated() {
            _ = try await store.idempotencyKeys.reserve(request(key, at: Double(index * 10)))
        }
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(15 * 60)) == 2)
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(15 * 60)) == 0)
        guard case .reserved = try await store.idempotencyKeys.reserve(request("old-1", at: 40)) else {
            Issue.record("a purged key was not fresh")
            return
        }
        guard case .pending = try await store.idempotencyKeys.reserve(request("new-1", at: 40)) else {
            Issue.record("a kept key was forgotten")
            return
        }
        // old-1, reserved again, is now the newest row: a purge before its new time keeps it.
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(35 * 60)) == 2)
        guard case .pending = try await store.idempotencyKeys.reserve(request("old-1", at: 41)) else {
            Issue.record("the key reserved again was purged")
            return
        }
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(60 * 60)) == 1)

        // A key reserved a moment out of order (its row after a key still in force) waits for a
        // later purge; the key in force is never deleted.
        _ = try await store.idempotencyKeys.reserve(request("late", at: 120))
        _ = try await store.idempotencyKeys.reserve(request("early", at: 100))
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(110 * 60)) == 0)
        guard case .pending = try await store.idempotencyKeys.reserve(request("late", at: 121)) else {
            Issue.record("a key in force was purged")
            return
        }
        #expect(try await store.idempotencyKeys.purge(reservedBefore: start.addingTimeInterval(130 * 60)) == 2)
    }
}

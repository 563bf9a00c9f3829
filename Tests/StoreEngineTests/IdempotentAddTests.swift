import Foundation
import StoreEngine
import StoreKitModel
import Testing

/// `add(_:idempotency:respond:)`: a server's payment, its idempotency key and its answer in one commit.
@Suite struct IdempotentAddTests {
    struct RespondFailed: Error {}

    static func request(_ key: String, hash: String = "hash-1", lifetime: TimeInterval = 3600) -> IdempotentRequest {
        IdempotentRequest(key: key, requestHash: hash, lifetime: lifetime, now: Date())
    }

    static func answer(_ transaction: Transaction, _ details: TransactionDetails) -> StoredResponse {
        StoredResponse(status: 201, body: Data("\(transaction.id) \(transaction.state.name) \(details.price) \(details.currency)".utf8))
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
        let other = try await fixture.store.add(payment, idempotency: Self.request("k1", hash: "hash-2"), respond: Self.answer)
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
        #expect(try await reopened.store.add(payment, idempotency: Self.request("k3"), respond: Self.answer) == .answered(stored, replayed: true))
        #expect(try await reopened.store.transactions(account: "alice").count == 1)
    }
}

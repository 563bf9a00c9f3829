import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreAPI
import StoreCore
import StoreEngine
import StoreServer
import Testing

@Suite struct UpdatesRouteTests {
    /// Reads the journal in pages of two, as a client that disconnects after every answer and
    /// reconnects with its cursor: every update arrives once, in order, and nothing more.
    @Test func pagesResumedFromTheirCursorMissNothingAndRepeatNothing() async throws {
        let fixture = try await ServerFixture()
        var bought: [String] = []
        for _ in 0..<3 { bought.append(try await fixture.buy(ServerFixture.gems).transaction.id) }
        let ids = bought
        _ = try await fixture.buy(ServerFixture.gems, account: "kenji")  // another account's: never in alice's feed
        try await fixture.test { client in
            var cursor: Int64 = 0
            var seen: [(String, String)] = []
            var cursors: [Int64] = []
            while true {
                let page = try await client.object(.get, "/v1/accounts/alice/updates?after=\(cursor)&limit=2")
                let updates = try #require(page["updates"] as? [[String: Any]])
                if updates.isEmpty {
                    #expect((page["cursor"] as? NSNumber)?.int64Value == cursor)
                    break
                }
                #expect(updates.count <= 2)
                for update in updates {
                    let transaction = try #require(update["transaction"] as? [String: Any])
                    seen.append((transaction["transactionId"] as? String ?? "", transaction["state"] as? String ?? ""))
                    cursors.append((update["cursor"] as? NSNumber)?.int64Value ?? -1)
                    #expect(transaction["account"] as? String == "alice")
                }
                cursor = try #require((page["cursor"] as? NSNumber)?.int64Value)
            }
            #expect(cursors == cursors.sorted() && Set(cursors).count == cursors.count)
            let expected = ids.flatMap { [($0, "purchasing"), ($0, "purchased")] }
            #expect(seen.map { "\($0.0) \($0.1)" } == expected.map { "\($0.0) \($0.1)" })
            // Something new after the last cursor: exactly that, nothing before it again.
            let next = try await fixture.buy(ServerFixture.removeAds).transaction.id
            let page = try await client.object(.get, "/v1/accounts/alice/updates?after=\(cursor)")
            let states = (page["updates"] as? [[String: Any]] ?? []).compactMap { $0["transaction"] as? [String: Any] }
                .map { "\($0["transactionId"] as? String ?? "") \($0["state"] as? String ?? "")" }
            #expect(states == ["\(next) purchasing", "\(next) purchased"])
        }
    }

    /// A receipt lists every purchase of its account: a page carries it once per account, not in
    /// every purchased update (which made a page grow with the square of the purchases).
    @Test func aPageCarriesEachAccountsReceiptOnce() async throws {
        let fixture = try await ServerFixture()
        for _ in 0..<20 { _ = try await fixture.buy(ServerFixture.gems) }
        _ = try await fixture.buy(ServerFixture.gems, account: "kenji")
        try await fixture.test { client in
            let response = try await client.send(.get, "/v1/updates?after=0&limit=1000")
            let page = try #require(
                try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            let updates = try #require(page["updates"] as? [[String: Any]])
            #expect(updates.count == 42)
            #expect(updates.allSatisfy { $0["receipt"] == nil })
            let receipts = try #require(page["receipts"] as? [String: String])
            #expect(receipts.keys.sorted() == ["alice", "kenji"])
            // The page is its updates (each without a receipt) plus each account's receipt once, and
            // a little framing; a receipt in every purchased update would add twenty of alice's.
            let alice = try #require(receipts["alice"])
            let updateBytes = try updates.reduce(0) { $0 + (try JSONSerialization.data(withJSONObject: $1)).count }
            let receiptBytes = receipts.values.reduce(0) { $0 + $1.utf8.count }
            #expect(response.body.readableBytes < updateBytes + receiptBytes + 1_000)
            #expect(response.body.readableBytes < updateBytes + 2 * alice.utf8.count)
            // Decoded, every purchased update has its account's receipt back, and only those.
            let decoded = try JSONDecoder().decode(UpdatesResponse.self, from: Data(buffer: response.body)).wireUpdates
                .transactionUpdates()
            #expect(
                decoded.filter { $0.transaction.state == .purchased }.allSatisfy {
                    $0.receipt == receipts[$0.transaction.payment.account]
                })
            #expect(decoded.filter { $0.transaction.state == .purchasing }.allSatisfy { $0.receipt == nil })
            // Nothing new: no receipts at all.
            let empty = try await client.object(
                .get, "/v1/updates?after=\((page["cursor"] as? NSNumber)?.int64Value ?? 0)")
            #expect(empty["receipts"] == nil && (empty["updates"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aLongPollAnswersAsSoonAsAnUpdateArrives() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let start = try await client.object(.get, "/v1/accounts/alice/updates?wait=0")
            let cursor = try #require((start["cursor"] as? NSNumber)?.int64Value)
            let began = fixture.clock.now()
            async let page = client.object(.get, "/v1/accounts/alice/updates?after=\(cursor)&wait=20")
            await fixture.longPollWaiting()
            _ = try await client.pay(ServerFixture.gems)
            let updates = try #require(try await page["updates"] as? [[String: Any]])
            #expect(!updates.isEmpty)
            // The clock never moved: the update, not the end of the wait, answered the poll.
            #expect(fixture.clock.now() == began)
        }
    }

    @Test func aLongPollWithNothingNewAnswersEmptyAfterItsWait() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            async let answer = client.object(.get, "/v1/accounts/alice/updates?after=0&wait=1")
            await fixture.longPollWaiting()
            fixture.clock.advance(by: 1)
            let page = try await answer
            #expect((page["updates"] as? [Any])?.isEmpty == true)
            #expect((page["cursor"] as? NSNumber)?.int64Value == 0)
        }
    }

    @Test func askToBuyApprovedThroughAdminReachesTheClientsPoll() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.pay(ServerFixture.removeAds, account: "kid")
            let id = try #require((try json(response)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let (deferred, cursor, _) = try await client.awaitUpdate(account: "kid", after: 0, transactionId: id)
            #expect((deferred["transaction"] as? [String: Any])?["state"] as? String == "deferred")
            // A client waiting on the account's feed, and a third client (the parent) approving.
            async let waiting = client.awaitUpdate(account: "kid", after: cursor, transactionId: id)
            await fixture.longPollWaiting()
            let approval = try await client.object(.post, "/admin/transactions/\(id)/approve", admin: true)
            #expect(
                ((approval["updates"] as? [[String: Any]])?.first?["transaction"] as? [String: Any])?["state"]
                    as? String == "purchased")
            let (approved, _, receipts) = try await waiting
            let transaction = try #require(approved["transaction"] as? [String: Any])
            #expect(transaction["state"] as? String == "purchased")
            #expect(transaction["jwsRepresentation"] is String)
            #expect(approved["receipt"] == nil && receipts["kid"] is String)
        }
    }

    /// Apple sends the app nothing for a declined Ask to Buy request: the device's poll stays
    /// empty, and the admin routes show the store's side on a transaction that stays deferred.
    @Test func askToBuyDeclinedThroughAdminSendsTheClientsPollNothing() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let response = try await client.pay(ServerFixture.removeAds, account: "kid")
            let id = try #require((try json(response)["transaction"] as? [String: Any])?["transactionId"] as? String)
            let (_, cursor, _) = try await client.awaitUpdate(account: "kid", after: 0, transactionId: id)
            let decline = try await client.object(.post, "/admin/transactions/\(id)/decline", admin: true)
            #expect((decline["updates"] as? [Any])?.isEmpty == true)
            async let poll = client.object(.get, "/v1/accounts/kid/updates?after=\(cursor)&wait=1")
            await fixture.longPollWaiting()
            fixture.clock.advance(by: 1)
            #expect((try await poll["updates"] as? [Any])?.isEmpty == true, "the device hears nothing")
            let listed = try await client.object(.get, "/admin/transactions", admin: true)
            let declined = try #require(
                (listed["transactions"] as? [[String: Any]])?.first { $0["transactionId"] as? String == id })
            #expect(declined["state"] as? String == "deferred")
            #expect(declined["failureContext"] as? String == "declined")
            #expect(declined["error"] == nil)
            _ = try await client.object(.post, "/admin/transactions/\(id)/approve", admin: true, expect: .conflict)
        }
    }

    @Test func theAllAccountsFeedAndUnknownAccounts() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.gems)
        _ = try await fixture.buy(ServerFixture.gems, account: "kenji")
        try await fixture.test { client in
            let page = try await client.object(.get, "/v1/updates?after=0")
            let accounts = Set(
                (page["updates"] as? [[String: Any]] ?? []).compactMap {
                    ($0["transaction"] as? [String: Any])?["account"] as? String
                })
            #expect(accounts == ["alice", "kenji"])
            let missing = try await client.object(.get, "/v1/accounts/nobody/updates", expect: .notFound)
            #expect((missing["error"] as? [String: Any])?["code"] as? String == "not_found")
            let bad = try await client.object(.get, "/v1/accounts/alice/updates?after=-1", expect: .badRequest)
            #expect((bad["error"] as? [String: Any])?["field"] as? String == "after")
            let tooLong = try await client.object(.get, "/v1/accounts/alice/updates?wait=999", expect: .badRequest)
            #expect((tooLong["error"] as? [String: Any])?["field"] as? String == "wait")
        }
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import StoreServer
import Testing

/// What the App Store tells an account's apps outside a purchase, over HTTP: a tester sends a
/// message (`POST /admin/accounts/{account}/messages`) or starts a purchase on the App Store
/// (`…/purchase-intents`); an app takes each once (`POST /v1/accounts/{account}/messages/take`,
/// `…/purchase-intents/take`), and a retry of a take with its Idempotency-Key gets the same answer.
@Suite struct StoreMessageRouteTests {
    static let comeback = "com.example.storefront.premium.comeback"

    @Test func aGenericMessageIsSentOnceToTheAppThatTakesIt() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let body = #"{"reason":"generic"}"#
            #expect(try await client.send(.post, "/admin/accounts/alice/messages", json: body).status == .unauthorized)
            _ = try await client.object(.post, "/admin/accounts/alice/messages", json: body, admin: true)
            let other = try await client.object(.post, "/v1/accounts/kenji/messages/take")
            #expect((other["messages"] as? [Any])?.isEmpty == true)
            let key = ["Idempotency-Key": "take-1"]
            let taken = try await client.object(.post, "/v1/accounts/alice/messages/take", headers: key)
            let messages = try #require(taken["messages"] as? [[String: Any]])
            #expect(messages.map { $0["reason"] as? String } == ["generic"])
            #expect(messages.first?["sentDate"] is NSNumber && messages.first?["id"] is NSNumber)
            // The answer was lost: the retry with its key gets it again; a new take gets nothing.
            let retried = try await client.object(.post, "/v1/accounts/alice/messages/take", headers: key)
            #expect((retried["messages"] as? [[String: Any]])?.count == 1)
            let next = try await client.object(.post, "/v1/accounts/alice/messages/take")
            #expect((next["messages"] as? [Any])?.isEmpty == true)
        }
    }

    @Test func aMessageATesterCannotSendIsRefusedByName() async throws {
        let fixture = try await ServerFixture()
        try await fixture.test { client in
            let refused = try await client.object(
                .post, "/admin/accounts/alice/messages", json: #"{"reason":"billingIssue"}"#, admin: true,
                expect: .unprocessableContent)
            #expect(String(describing: refused).contains("generic"))
            _ = try await client.object(
                .post, "/admin/accounts/alice/messages", json: #"{"reason":"generic","extra":1}"#, admin: true,
                expect: .unprocessableContent)
            _ = try await client.object(
                .post, "/admin/accounts/mallory/messages", json: #"{"reason":"generic"}"#, admin: true,
                expect: .notFound)
            _ = try await client.object(.post, "/v1/accounts/mallory/messages/take", expect: .notFound)
        }
    }

    @Test func aPurchaseIntentIsTakenOnceWithItsOffer() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            let body = #"{"productId":"\#(ServerFixture.monthly)","offerId":"\#(Self.comeback)"}"#
            // Subscribed now: the App Store would not have offered the win-back offer.
            _ = try await client.object(
                .post, "/admin/accounts/alice/purchase-intents", json: body, admin: true, expect: .conflict)
            _ = try await client.object(
                .post, "/admin/transactions/\(bought.transaction.id)/auto-renew/off", admin: true)
            _ = try await client.object(.post, "/admin/transactions/\(bought.transaction.id)/expire", admin: true)
            fixture.clock.advance(by: 60)
            _ = try await client.object(.post, "/admin/accounts/alice/purchase-intents", json: body, admin: true)
            _ = try await client.object(
                .post, "/admin/accounts/alice/purchase-intents",
                json: #"{"productId":"\#(ServerFixture.removeAds)"}"#, admin: true)
            let taken = try await client.object(.post, "/v1/accounts/alice/purchase-intents/take")
            let intents = try #require(taken["intents"] as? [[String: Any]])
            #expect(intents.map { $0["productId"] as? String } == [ServerFixture.monthly, ServerFixture.removeAds])
            #expect(intents.map { $0["offerId"] as? String } == [Self.comeback, nil])
            let next = try await client.object(.post, "/v1/accounts/alice/purchase-intents/take")
            #expect((next["intents"] as? [Any])?.isEmpty == true)
            _ = try await client.object(
                .post, "/admin/accounts/alice/purchase-intents", json: #"{"productId":"com.example.nothing"}"#,
                admin: true, expect: .notFound)
            _ = try await client.object(
                .post, "/admin/accounts/alice/purchase-intents", json: #"{"offerId":"x"}"#, admin: true,
                expect: .unprocessableContent)
        }
    }

    @Test func theWinBackMessageIsTakenOverHTTPUnlessSuppressed() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.monthly)
        try await fixture.test { client in
            _ = try await client.object(.put, "/admin/controls", json: #"{"winBackMessages":false}"#, admin: true)
            _ = try await client.object(
                .post, "/admin/transactions/\(bought.transaction.id)/auto-renew/off", admin: true)
            _ = try await client.object(.post, "/admin/transactions/\(bought.transaction.id)/expire", admin: true)
            fixture.clock.advance(by: 60)
            let suppressed = try await client.object(.post, "/v1/accounts/alice/messages/take")
            #expect((suppressed["messages"] as? [Any])?.isEmpty == true)
            let controls = try await client.object(.get, "/v1/controls")
            #expect(controls["winBackMessages"] as? Bool == false)
            _ = try await client.object(.put, "/admin/controls", json: #"{"winBackMessages":true}"#, admin: true)
            let taken = try await client.object(.post, "/v1/accounts/alice/messages/take")
            let messages = try #require(taken["messages"] as? [[String: Any]])
            #expect(messages.map { $0["reason"] as? String } == ["winBackOffer"])
            #expect(messages.first?["productId"] as? String == ServerFixture.monthly)
            #expect(messages.first?["offerId"] as? String == Self.comeback)
        }
    }
}

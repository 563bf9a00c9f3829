import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import ServerRecords
import StoreCore
import Testing

@testable import StoreServer

/// Extend Subscription Renewal Dates for All Active Subscribers and its status route, with
/// Apple's error codes, and the RENEWAL_EXTENSION/SUMMARY payload that carries `summary`.
@Suite struct MassExtensionRouteTests {
    static let id = "9a1f3c2e-5b4d-4e6f-8a7b-0c1d2e3f4a5b"

    static func body(
        days: Int = 3, reason: Int = 1, id: String = id, product: String = ServerFixture.monthly,
        storefronts: String? = nil
    ) -> String {
        let codes = storefronts.map { #","storefrontCountryCodes":\#($0)"# } ?? ""
        return
            #"{"extendByDays":\#(days),"extendReasonCode":\#(reason),"requestIdentifier":"\#(id)","productId":"\#(product)"\#(codes)}"#
    }

    @Test func aRequestIsAnsweredAtOnceAndItsStatusShowsTheBackgroundsProgress() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        fixture.service.store.outbox.setURLs(["http://127.0.0.1:9/notifications"])
        _ = try await fixture.buy(ServerFixture.monthly)
        _ = try await fixture.buy(ServerFixture.monthly, account: "kenji")
        let token = try bearer.make()
        let status = "/inApps/v1/subscriptions/extend/mass/\(ServerFixture.monthly)/\(Self.id)"
        try await fixture.test { client in
            // The server's maintenance, which applies mass extensions, waits for the clock to move.
            await fixture.clock.sleeping(
                until: fixture.clock.now().addingTimeInterval(1), count: ServerFixture.backgroundSleepers)
            let started = try await client.api(
                .post, "/inApps/v1/subscriptions/extend/mass", token: token, json: Self.body())
            #expect(started.status == .ok)
            #expect(try json(started)["requestIdentifier"] as? String == Self.id)
            let running = try json(try await client.api(.get, status, token: token))
            #expect(running["complete"] as? Bool == false && running["completeDate"] == nil)

            let handled = try await fixture.service.massExtensions.advance(limit: 10)
            #expect(handled == 2)
            let done = try json(try await client.api(.get, status, token: token))
            #expect(done["complete"] as? Bool == true && done["succeededCount"] as? Int == 2)
            #expect(done["failedCount"] as? Int == 0 && done["completeDate"] as? Int != nil)

            let again = try await client.api(
                .post, "/inApps/v1/subscriptions/extend/mass", token: token, json: Self.body())
            #expect(again.status == .ok, "Apple answers a request sent again 200")
            let other = try await client.api(
                .post, "/inApps/v1/subscriptions/extend/mass", token: token, json: Self.body(days: 4))
            #expect(try json(other)["errorCode"] as? Int == 4_000_011)
        }
        let summary = try #require(
            try await fixture.service.notifications.recent(limit: 1).first?.notification)
        let signed = try await fixture.service.signedPayloads([summary])
        let payload = try ServerAPIRouteTests.payload(try #require(signed[summary.uuid]))
        #expect(
            payload["notificationType"] as? String == "RENEWAL_EXTENSION" && payload["subtype"] as? String == "SUMMARY")
        #expect(payload["data"] == nil)
        let fields = try #require(payload["summary"] as? [String: Any])
        #expect(
            fields["requestIdentifier"] as? String == Self.id && fields["productId"] as? String == ServerFixture.monthly
        )
        #expect(fields["succeededCount"] as? Int == 2 && fields["failedCount"] as? Int == 0)
        #expect(fields["bundleId"] as? String == BearerToken.bundleId && fields["environment"] as? String == "Sandbox")
    }

    @Test func badRequestsAreRefusedWithApplesCodes() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let token = try bearer.make()
        try await fixture.test { client in
            for (body, code) in [
                (Self.body(days: 0), 4_000_009), (Self.body(days: 91), 4_000_009), (Self.body(reason: 4), 4_000_010),
                (Self.body(id: "not-a-uuid"), 4_000_011), (Self.body(product: ServerFixture.gems), 4_000_023),
                (Self.body(product: "no.such.product"), 4_000_023), (Self.body(storefronts: "[]"), 4_000_027),
                (Self.body(storefronts: #"["USA","us"]"#), 4_000_028),
            ] {
                let refused = try await client.api(
                    .post, "/inApps/v1/subscriptions/extend/mass", token: token, json: body)
                #expect(refused.status == .badRequest && refused.headers[.contentType] == "application/json", "\(body)")
                #expect(try json(refused)["errorCode"] as? Int == code, "\(body)")
            }
            for (path, status, code) in [
                ("\(ServerFixture.monthly)/not-a-uuid", 400, 4_000_011),
                ("\(ServerFixture.monthly)/\(Self.id)", 404, 4_040_009),
            ] {
                let answer = try await client.api(.get, "/inApps/v1/subscriptions/extend/mass/\(path)", token: token)
                #expect(answer.status.code == status, "\(path)")
                #expect(try json(answer)["errorCode"] as? Int == code, "\(path)")
            }
            let unauthenticated = try await client.send(
                .post, "/inApps/v1/subscriptions/extend/mass", json: Self.body())
            #expect(unauthenticated.status == .unauthorized)
        }
    }
}

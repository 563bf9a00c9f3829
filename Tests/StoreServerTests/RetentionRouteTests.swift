import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreServer
import TestSupport
import Testing

/// The Retention Messaging API's refusals, each with Apple's code, and what the cancellation
/// sheet is shown. Apple's Python client covers the rest end to end (`AppleRetentionMessagingTests`).
@Suite struct RetentionRouteTests {
    static func code(_ response: TestResponse) throws -> Int? {
        try json(response)["errorCode"] as? Int
    }

    /// The chunks of a PNG of `width`×`height`, RGB (`colorType` 2) or RGBA (6): enough for the
    /// server, which reads the header and the chunk list, not the pixels or the checksums.
    static func png(_ width: Int, _ height: Int, colorType: UInt8 = 2) -> Data {
        func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] { be32(data.count) + Array(type.utf8) + data + be32(0) }
        let header = be32(width) + be32(height) + [8, colorType, 0, 0, 0]
        return Data(
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", [0, 0])
                + chunk("IEND", []))
    }

    static func upload(
        _ client: any TestClientProtocol, _ data: Data, id: UUID = UUID(), size: String? = nil, token: String
    )
        async throws -> TestResponse
    {
        try await client.execute(
            uri: "/inApps/v1/messaging/image/\(id.uuidString.lowercased())" + (size.map { "?imageSize=\($0)" } ?? ""),
            method: .put, headers: [.authorization: "Bearer \(token)", .contentType: "image/png"],
            body: ByteBuffer(data: data))
    }

    @Test func imagesAreOpaquePNGsOfTheirSize() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let token = try bearer.make()
        try await fixture.test { client in
            #expect(try await Self.upload(client, Self.png(3840, 160), token: token).status == .ok)
            #expect(try await Self.upload(client, Self.png(64, 64), size: "BULLET_POINT", token: token).status == .ok)
            let alpha = try await Self.upload(client, Self.png(3840, 160, colorType: 6), token: token)
            #expect(alpha.status == .badRequest)
            #expect(try Self.code(alpha) == 4_000_161)
            let narrow = try await Self.upload(client, Self.png(3000, 160), token: token)
            #expect(try Self.code(narrow) == 4_000_161, "\(String(buffer: narrow.body))")
            let notPNG = try await Self.upload(client, Data("GIF89a".utf8), token: token)
            #expect(try Self.code(notPNG) == 4_000_161)
            let huge = try await Self.upload(
                client, Self.png(3840, 160) + Data(count: 5 * 1024 * 1024), token: token)
            #expect(try Self.code(huge) == 4_000_161, "\(String(buffer: huge.body))")
            let size = try await Self.upload(client, Self.png(64, 64), size: "HUGE", token: token)
            #expect(try Self.code(size) == 4_000_216)
        }
    }

    @Test func messagesPastApplesLimitsAreRefusedWithApplesCodes() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let token = try bearer.make()
        let bullet = #"{"text": "t", "imageIdentifier": "\#(UUID().uuidString)", "altText": "a"}"#
        let cases: [(String, Int)] = [
            (#"{"header": "\#(String(repeating: "h", count: 67))", "body": "b"}"#, 4_000_162),
            (#"{"header": "h", "body": "\#(String(repeating: "b", count: 145))"}"#, 4_000_163),
            (#"{"header": "h", "body": "b", "headerPosition": "ABOVE_IMAGE"}"#, 4_000_224),
            (
                #"{"header": "h", "body": "b", "bulletPoints": [\#(Array(repeating: bullet, count: 6).joined(separator: ","))]}"#,
                4_000_218
            ),
            (
                #"{"header": "h", "body": "b", "image": {"imageIdentifier": "\#(UUID().uuidString)", "altText": "\#(String(repeating: "a", count: 151))"}}"#,
                4_000_175
            ),
            (
                #"{"header": "h", "body": "b", "image": {"imageIdentifier": "\#(UUID().uuidString)", "altText": "a"}}"#,
                4_040_014
            ),
            (#"{"body": "b"}"#, 4_000_000),
        ]
        try await fixture.test { client in
            for (body, code) in cases {
                let response = try await client.api(
                    .put, "/inApps/v1/messaging/message/\(UUID().uuidString)", token: token, json: body)
                #expect((try Self.code(response)) == code, "\(body): \(String(buffer: response.body))")
            }
            let notUUID = try await client.api(
                .put, "/inApps/v1/messaging/message/not-a-uuid", token: token, json: #"{"header": "h", "body": "b"}"#)
            #expect(try Self.code(notUUID) == 4_000_000)
        }
    }

    @Test func theCancellationSheetShowsTheDefaultMessageOfTheProductAndLocale() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        _ = try await fixture.buy(ServerFixture.monthly)
        let token = try bearer.make()
        let id = UUID().uuidString.lowercased()
        let shown = "/v1/accounts/alice/retention-message/\(ServerFixture.monthly)/en-US"
        try await fixture.test { client in
            #expect(try await client.object(.get, shown).isEmpty)
            let upload = try await client.api(
                .put, "/inApps/v1/messaging/message/\(id)", token: token,
                json: #"{"header": "Before you go", "body": "Your streak is 40 days long.", "extra": 1}"#)
            #expect(upload.status == .ok, "\(String(buffer: upload.body))")
            let locale = try await client.api(
                .put, "/inApps/v1/messaging/default/\(ServerFixture.monthly)/not%20a%20locale", token: token,
                json: #"{"messageIdentifier": "\#(id)"}"#)
            #expect(try Self.code(locale) == 4_000_164)
            let consumable = try await client.api(
                .put, "/inApps/v1/messaging/default/\(ServerFixture.gems)/en-US", token: token,
                json: #"{"messageIdentifier": "\#(id)"}"#)
            #expect(try Self.code(consumable) == 4_000_023)
            let configured = try await client.api(
                .put, "/inApps/v1/messaging/default/\(ServerFixture.monthly)/en-US", token: token,
                json: #"{"messageIdentifier": "\#(id)"}"#)
            #expect(configured.status == .ok)
            let message = try #require(try await client.object(.get, shown)["message"] as? [String: Any])
            #expect(message["header"] as? String == "Before you go" && message["source"] as? String == "default")
            #expect(
                try await client.object(.get, "/v1/accounts/alice/retention-message/\(ServerFixture.monthly)/fr-FR")
                    .isEmpty)
            #expect(
                try await client.object(.get, "/v1/accounts/kenji/retention-message/\(ServerFixture.monthly)/en-US")
                    .isEmpty)
            _ = try await client.object(
                .get, "/v1/accounts/alice/retention-message/\(ServerFixture.gems)/en-US", expect: .notFound)
            // App Review by hand: a rejected message is no longer shown, not even as the default.
            let review = "/admin/retention/messages/\(id)/review"
            _ = try await client.object(
                .put, review, json: #"{"state": "SOON"}"#, admin: true, expect: .unprocessableContent)
            let rejected = try await client.object(.put, review, json: #"{"state": "REJECTED"}"#, admin: true)
            #expect(rejected["messageState"] as? String == "REJECTED")
            #expect(try await client.object(.get, shown).isEmpty)
            _ = try await client.object(
                .put, "/admin/retention/images/\(UUID().uuidString)/review", json: #"{"state": "REJECTED"}"#,
                admin: true, expect: .notFound)
        }
    }

    @Test func aProductionRealtimeURLNeedsAPassingPerformanceTest() async throws {
        let bearer = BearerToken()
        var configuration = ServerFixture.configuration(environment: .production)
        configuration.apiKeys = [try bearer.apiKey]
        let fixture = try await ServerFixture(configuration: configuration)
        let token = try bearer.make()
        try await fixture.test { client in
            let refused = try await client.api(
                .put, "/inApps/v1/messaging/realtime/url", token: token,
                json: #"{"realtimeURL": "https://example.com/retention"}"#)
            #expect(refused.status == .forbidden)
            #expect(try Self.code(refused) == 4_030_026)
        }
    }
}

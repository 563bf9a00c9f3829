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

    /// A PNG of `width`×`height`, RGB (`colorType` 2) or RGBA (6), black, written here without
    /// zlib (its image data in stored deflate blocks) so the server's decoding is checked against
    /// an independent encoder. `rows`: how many rows the data holds (the header's height unless
    /// given); `filter`: each row's filter byte; `damage`: bytes to change after writing.
    static func png(
        _ width: Int, _ height: Int, colorType: UInt8 = 2, rows: Int? = nil, filter: UInt8 = 0,
        damage: (inout [UInt8]) -> Void = { _ in }
    ) -> Data {
        let channels = colorType == 6 ? 4 : 3
        let row = [filter] + [UInt8](repeating: 0, count: width * channels)
        let raw = (0..<(rows ?? height)).flatMap { _ in row }
        let header = PNGBytes.be32(width) + PNGBytes.be32(height) + [8, colorType, 0, 0, 0]
        var bytes =
            [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + PNGBytes.chunk("IHDR", header)
            + PNGBytes.chunk("IDAT", PNGBytes.storedZlib(raw)) + PNGBytes.chunk("IEND", [])
        damage(&bytes)
        return Data(bytes)
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

    /// An image Apple could not show is refused as it would be: one that does not decode.
    @Test func imagesThatDoNotDecodeAreRefused() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let token = try bearer.make()
        let damaged: [(String, Data)] = [
            ("fails its CRC", Self.png(64, 64) { $0[50] ^= 0xFF }),
            ("ends before its last row", Self.png(64, 64, rows: 63)),
            ("holds more than the 64 rows", Self.png(64, 64, rows: 65)),
            ("filter type 9", Self.png(64, 64, filter: 9)),
            ("runs past the end of the file", Data(Self.png(64, 64).dropLast(20))),
        ]
        try await fixture.test { client in
            for (problem, image) in damaged {
                let answer = try await Self.upload(client, image, size: "BULLET_POINT", token: token)
                #expect(try Self.code(answer) == 4_000_161, "\(problem)")
                #expect(String(buffer: answer.body).contains(problem), "\(String(buffer: answer.body))")
            }
            #expect(try await Self.upload(client, Self.png(64, 64), size: "BULLET_POINT", token: token).status == .ok)
        }
    }

    @Test func messagesPastApplesLimitsAreRefusedWithApplesCodes() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerAPIRouteTests.fixture(bearer)
        let token = try bearer.make()
        let bullet = #"{"text": "t", "imageIdentifier": "\#(UUID().uuidString)", "altText": "a"}"#
        let cases: [(String, Int)] = [
            (#"{"header": "\#(String(repeating: "h", count: 67))", "body": "b"}"#, 4_000_162),
            // 40 flags: 40 graphemes, but 80 characters as Apple's libraries count them.
            (#"{"header": "\#(String(repeating: "🇫🇷", count: 40))", "body": "b"}"#, 4_000_162),
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

/// PNG's byte-level pieces, written by hand for the tests.
enum PNGBytes {
    static func be32(_ value: Int) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(data.count) + typed + be32(Int(crc32(typed)))
    }

    /// A zlib stream of stored (uncompressed) deflate blocks.
    static func storedZlib(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var at = 0
        repeat {
            let count = min(65535, raw.count - at)
            let last: UInt8 = at + count == raw.count ? 1 : 0
            out += [last, UInt8(count & 0xFF), UInt8(count >> 8), UInt8(~count & 0xFF), UInt8((~count >> 8) & 0xFF)]
            out += raw[at..<at + count]
            at += count
        } while at < raw.count
        var (a, b): (UInt32, UInt32) = (1, 0)
        for byte in raw { (a, b) = ((a + UInt32(byte)) % 65521, (b + (a + UInt32(byte)) % 65521) % 65521) }
        return out + be32(Int(b << 16 | a))
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }
}

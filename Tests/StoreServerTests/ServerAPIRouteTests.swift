import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import StoreEngine
import StoreServer
import StoreSigning
import TestSupport
import Testing

/// A bearer token as App Store Connect keys sign them, with any claim replaceable.
struct BearerToken {
    static let issuer = "57246542-96fe-1a63-e053-0824d011072a"
    static let keyId = "2X9R4HXF34"
    static let bundleId = "com.example.storefront.demo"

    let key: P256.Signing.PrivateKey

    init(key: P256.Signing.PrivateKey = P256.Signing.PrivateKey()) {
        self.key = key
    }

    var apiKey: APIKey {
        get throws { try APIKey(issuerId: Self.issuer, keyId: Self.keyId, pem: key.pemRepresentation) }
    }

    func make(
        kid: String = keyId, alg: String = "ES256", claims overrides: [String: Any] = [:], removing: [String] = [],
        header extra: [String: Any] = [:]
    ) throws -> String {
        var claims: [String: Any] = [
            "iss": Self.issuer, "aud": "appstoreconnect-v1", "bid": Self.bundleId,
            "exp": Int(Date().timeIntervalSince1970) + 300,
        ]
        claims.merge(overrides) { $1 }
        for name in removing { claims[name] = nil }
        let header = try JSONSerialization.data(
            withJSONObject: (["alg": alg, "kid": kid, "typ": "JWT"] as [String: Any]).merging(extra) { $1 })
        let input =
            Base64URL.encode(header) + "." + Base64URL.encode(try JSONSerialization.data(withJSONObject: claims))
        return input + "." + Base64URL.encode(try key.signature(for: Data(input.utf8)).rawRepresentation)
    }
}

extension TestClientProtocol {
    func api(_ method: HTTPRequest.Method, _ uri: String, token: String, json: String? = nil) async throws
        -> TestResponse
    {
        try await send(method, uri, json: json, headers: ["Authorization": "Bearer \(token)"])
    }
}

@Suite struct ServerAPIRouteTests {
    static func fixture(_ bearer: BearerToken) async throws -> ServerFixture {
        var configuration = ServerFixture.configuration()
        configuration.apiKeys = [try bearer.apiKey]
        return try await ServerFixture(configuration: configuration)
    }

    static func payload(_ jws: String) throws -> [String: Any] {
        let part = try #require(jws.split(separator: ".").dropFirst().first)
        let data = try #require(Base64URL.decode(String(part)))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    /// Apple signs each answer: a transaction read twice carries the time of each read as its
    /// `signedDate`, in Get Transaction Info, Get Transaction History and the statuses.
    @Test func eachAnswerIsSignedWhenItIsMade() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            func signedDates() async throws -> [Int64] {
                let info = try json(try await client.api(.get, "/inApps/v1/transactions/\(monthly)", token: token))
                let history = try json(try await client.api(.get, "/inApps/v2/history/\(monthly)", token: token))
                let statuses = try json(try await client.api(.get, "/inApps/v1/subscriptions/\(monthly)", token: token))
                let last = (statuses["data"] as? [[String: Any]])?.first?["lastTransactions"] as? [[String: Any]]
                let signed =
                    [info["signedTransactionInfo"] as? String] + ((history["signedTransactions"] as? [String]) ?? [])
                    + [last?.first?["signedTransactionInfo"] as? String]
                return try signed.map { jws in
                    let payload = try jws.map(Self.payload)
                    return (payload?["signedDate"] as? NSNumber)?.int64Value ?? 0
                }
            }
            for _ in 0..<2 {
                fixture.clock.advance(by: 90)
                let now = fixture.clock.now().epochMilliseconds
                let dates = try await signedDates()
                #expect(dates == [now, now, now])
            }
        }
    }

    @Test func transactionInfoHistoryAndStatusesAnswerAsApplesDo() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let ads = try await fixture.buy(ServerFixture.removeAds).transaction.id
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction.id
        _ = try await fixture.buy(ServerFixture.gems)
        let token = try bearer.make()
        try await fixture.test { client in
            let info = try json(try await client.api(.get, "/inApps/v1/transactions/\(ads)", token: token))
            #expect(
                try Self.payload(try #require(info["signedTransactionInfo"] as? String))["productId"] as? String
                    == ServerFixture.removeAds)

            let history = try await client.api(.get, "/inApps/v2/history/\(monthly)", token: token)
            #expect(history.status == .ok && history.headers[.contentType] == "application/json")
            let page = try json(history)
            #expect((page["signedTransactions"] as? [String])?.count == 3 && page["hasMore"] as? Bool == false)
            #expect(page["environment"] as? String == "Sandbox" && page["appAppleId"] == nil)
            let subscriptions = try json(
                try await client.api(
                    .get, "/inApps/v2/history/\(ads)?productType=AUTO_RENEWABLE&sort=DESCENDING", token: token))
            #expect((subscriptions["signedTransactions"] as? [String])?.count == 1)

            let statuses = try json(try await client.api(.get, "/inApps/v1/subscriptions/\(ads)", token: token))
            let group = try #require((statuses["data"] as? [[String: Any]])?.first)
            let last = try #require((group["lastTransactions"] as? [[String: Any]])?.first)
            #expect(last["status"] as? Int == 1 && last["originalTransactionId"] as? String == monthly)
            let renewal = try Self.payload(try #require(last["signedRenewalInfo"] as? String))
            #expect(
                renewal["autoRenewStatus"] as? Int == 1 && renewal["renewalPrice"] as? Int == 4990
                    && renewal["currency"] as? String == "USD")
        }
    }

    @Test func historyPagesByTwentyWithARevisionBoundToItsQuery() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        var ids: [String] = []
        for _ in 0..<25 { ids.append(try await fixture.buy(ServerFixture.gems).transaction.id) }
        let first = ids[0]
        let bought = ids
        let token = try bearer.make()
        try await fixture.test { client in
            let one = try json(try await client.api(.get, "/inApps/v2/history/\(first)", token: token))
            #expect((one["signedTransactions"] as? [String])?.count == 20 && one["hasMore"] as? Bool == true)
            let revision = try #require(one["revision"] as? String)
            let two = try json(
                try await client.api(.get, "/inApps/v2/history/\(first)?revision=\(revision)", token: token))
            let rest = try #require(two["signedTransactions"] as? [String])
            #expect(rest.count == 5 && two["hasMore"] as? Bool == false)
            let seen = Set(
                ((one["signedTransactions"] as? [String]) ?? []).map {
                    try? Self.payload($0)["transactionId"] as? String
                })
            #expect(
                seen.count == 20
                    && rest.allSatisfy { !seen.contains(try? Self.payload($0)["transactionId"] as? String) })
            // The same revision with other filters is refused, as Apple refuses it.
            let other = try await client.api(
                .get, "/inApps/v2/history/\(first)?revision=\(revision)&sort=DESCENDING", token: token)
            #expect(other.status == .badRequest)
            #expect(try json(other)["errorCode"] as? Int == 4_000_005)
            // Version 1 leaves finished consumables out.
            let unfinished = try json(try await client.api(.get, "/inApps/v1/history/\(first)", token: token))
            #expect((unfinished["signedTransactions"] as? [String])?.count == 20)
            for id in bought { try await fixture.service.store.finish(transactionId: id, account: "alice") }
            let v1 = try json(try await client.api(.get, "/inApps/v1/history/\(first)", token: token))
            #expect((v1["signedTransactions"] as? [String])?.isEmpty == true)
        }
    }

    @Test func badTokensArePlain401sAndBadIdsApplesCodes() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let id = try await fixture.buy(ServerFixture.removeAds).transaction.id
        // The server's clock, which stands still: the tokens' dates are relative to it.
        let now = Int(fixture.clock.now().timeIntervalSince1970)
        let refused = [
            try bearer.make(kid: "UNKNOWN123"), try bearer.make(claims: ["aud": "other"]),
            try bearer.make(claims: ["bid": "com.other.app"]),
            try bearer.make(claims: ["exp": now - 10]), try bearer.make(claims: ["exp": now + 2 * 3600]),
            try bearer.make(claims: ["iat": now, "exp": now + 3700]), try bearer.make(claims: ["iss": "someone-else"]),
            try bearer.make(removing: ["bid"]), try BearerToken().make(), "not.a.jwt", "",
            // Issued ten years ahead, living under an hour from then; valid only from tomorrow;
            // an extension the server must understand.
            try bearer.make(claims: ["iat": now + 315_360_000, "exp": now + 315_360_000 + 3500]),
            try bearer.make(claims: ["iat": now, "nbf": now + 86_400, "exp": now + 3000]),
            try bearer.make(claims: ["iat": now, "exp": now + 3000], header: ["crit": ["exp"]]),
        ]
        try await fixture.test { client in
            for token in refused {
                let response = try await client.api(.get, "/inApps/v1/transactions/\(id)", token: token)
                #expect(response.status == .unauthorized && response.headers[.contentType] == "text/plain", "\(token)")
            }
            let unsigned = try await client.send(.get, "/inApps/v1/transactions/\(id)")
            #expect(unsigned.status == .unauthorized)
            let token = try bearer.make(claims: ["iat": now + 30, "nbf": now + 30, "exp": now + 3600])
            for (path, status, code) in [
                ("/inApps/v1/transactions/abc", 400, 4_000_006), ("/inApps/v1/transactions/99", 404, 4_040_010),
                ("/inApps/v2/history/\(id)?sort=UP", 400, 4_000_021),
                ("/inApps/v2/history/\(id)?productType=GAME", 400, 4_000_022),
                ("/inApps/v2/history/\(id)?startDate=20&endDate=10", 400, 4_000_013),
                ("/inApps/v2/history/\(id)?revoked=maybe", 400, 4_000_030),
                ("/inApps/v1/subscriptions/\(id)?status=9", 400, 4_000_031),
                ("/inApps/v2/history/\(id)?revision=%25%25", 400, 4_000_005),
            ] {
                let response = try await client.api(.get, path, token: token)
                #expect(
                    response.status.code == status && response.headers[.contentType] == "application/json", "\(path)")
                #expect(try json(response)["errorCode"] as? Int == code, "\(path): \(String(buffer: response.body))")
            }
            let orderId = try #require(OrderId.of(transactionId: id))
            let order = try json(try await client.api(.get, "/inApps/v1/lookup/\(orderId)", token: token))
            #expect(order["status"] as? Int == 0 && (order["signedTransactions"] as? [String])?.count == 1)
            let unknown = try json(try await client.api(.get, "/inApps/v1/lookup/NOTANORDER", token: token))
            #expect(unknown["status"] as? Int == 1 && (unknown["signedTransactions"] as? [String])?.isEmpty == true)
        }
    }

    /// Under `/inApps` even what no route answers is Apple's: a plain 401 without a token (a scan
    /// learns nothing), then Apple's error JSON for an unknown path or method.
    @Test func unknownPathsAndMethodsUnderInAppsAnswerInApplesShape() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let token = try bearer.make()
        try await fixture.test { client in
            for path in ["/inApps/v9/nothing", "/inApps", "/inApps/", "/inApps/v1/transactions/1/2/3"] {
                let anonymous = try await client.send(.get, path)
                #expect(anonymous.status == .unauthorized && anonymous.headers[.contentType] == "text/plain", "\(path)")
                let response = try await client.api(.get, path, token: token)
                #expect(response.status == .notFound && response.headers[.contentType] == "application/json", "\(path)")
                #expect(try json(response)["errorCode"] as? Int == 4_040_000, "\(path)")
            }
            let wrongMethod = try await client.api(.delete, "/inApps/v1/transactions/1", token: token)
            #expect(wrongMethod.status == .methodNotAllowed && wrongMethod.headers[.allow] == "GET")
            #expect(try json(wrongMethod)["errorCode"] as? Int == 4_050_000)
            // Outside /inApps the server's own shape stays.
            let own = try json(try await client.send(.get, "/v9/nothing"))
            #expect((own["error"] as? [String: Any])?["code"] as? String == "not_found", "\(own)")
        }
    }

    /// Premium Yearly is shared with alice's family: kid's copy is not extended, alice's is.
    @Test func aFamilyMembersCopyIsNotExtended() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let yearly = try await fixture.buy("com.example.storefront.premium.yearly").transaction
        let copy = try #require(try await fixture.service.store.transactions(account: "kid").first)
        let token = try bearer.make()
        try await fixture.test { client in
            let shared = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(copy.id)", token: token,
                json: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r-1"}"#)
            #expect(shared.status == .forbidden)
            #expect(try json(shared)["errorCode"] as? Int == 4_030_007)
            let own = try json(
                try await client.api(
                    .put, "/inApps/v1/subscriptions/extend/\(yearly.id)", token: token,
                    json: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r-2"}"#))
            #expect(own["success"] as? Bool == true)
        }
    }

    /// A family member's copy cannot be reported on or tagged: 400 FamilyTransactionNotSupported.
    @Test func aFamilyMembersCopyTakesNoConsumptionOrAccountToken() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        _ = try await fixture.buy("com.example.storefront.premium.yearly")
        let copy = try #require(try await fixture.service.store.transactions(account: "kid").first)
        let token = try bearer.make()
        try await fixture.test { client in
            let consumption =
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
            let calls: [(HTTPRequest.Method, String, String)] = [
                (.put, "/inApps/v2/transactions/consumption/\(copy.id)", consumption),
                (
                    .put, "/inApps/v1/transactions/consumption/\(copy.id)",
                    #"{"customerConsented":true,"consumptionStatus":0,"platform":0,"sampleContentProvided":false,"deliveryStatus":0,"accountTenure":0,"playTime":0,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":0,"userStatus":0,"appAccountToken":""}"#
                ),
                (
                    .put, "/inApps/v1/transactions/\(copy.id)/appAccountToken",
                    #"{"appAccountToken":"7389a31a-fb6d-4569-a2a6-db7d85d84813"}"#
                ),
            ]
            for (method, path, body) in calls {
                let answer = try await client.api(method, path, token: token, json: body)
                #expect(answer.status == .badRequest, "\(path)")
                #expect(try json(answer)["errorCode"] as? Int == 4_000_185, "\(path): \(String(buffer: answer.body))")
            }
        }
    }

    /// A transaction an organization or group assigned (inAppOwnershipType ASSIGNED): signed as
    /// such, found by the history's filter, and refused where Apple refuses it.
    @Test func anAssignedTransactionIsRefusedWhereApplesAPIRefusesIt() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let yearly = try await fixture.buy("com.example.storefront.premium.yearly", account: "kenji").transaction
        _ = try await fixture.service.store.perform(.assign(yearly.id, account: "lena"))
        let copy = try #require(try await fixture.service.store.transactions(account: "lena").first)
        let token = try bearer.make()
        try await fixture.test { client in
            let info = try json(try await client.api(.get, "/inApps/v1/transactions/\(copy.id)", token: token))
            let signed = try Self.payload(try #require(info["signedTransactionInfo"] as? String))
            #expect(signed["inAppOwnershipType"] as? String == "ASSIGNED")
            let history = try json(
                try await client.api(
                    .get, "/inApps/v2/history/\(copy.id)?inAppOwnershipType=ASSIGNED", token: token))
            #expect((history["signedTransactions"] as? [String])?.count == 1, "\(history)")
            let extend = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(copy.id)", token: token,
                json: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r-1"}"#)
            #expect(extend.status == .forbidden)
            let refused = try json(extend)
            #expect(refused["errorCode"] as? Int == 4_030_028)
            #expect(refused["errorMessage"] as? String == "Assigned subscriptions can't get a renewal date extension.")
            let calls: [(HTTPRequest.Method, String, String)] = [
                (
                    .put, "/inApps/v2/transactions/consumption/\(copy.id)",
                    #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#
                ),
                (
                    .put, "/inApps/v1/transactions/consumption/\(copy.id)",
                    #"{"customerConsented":true,"consumptionStatus":0,"platform":0,"sampleContentProvided":false,"deliveryStatus":0,"accountTenure":0,"playTime":0,"lifetimeDollarsRefunded":0,"lifetimeDollarsPurchased":0,"userStatus":0,"appAccountToken":""}"#
                ),
                (
                    .put, "/inApps/v1/transactions/\(copy.id)/appAccountToken",
                    #"{"appAccountToken":"7389a31a-fb6d-4569-a2a6-db7d85d84813"}"#
                ),
            ]
            for (method, path, body) in calls {
                let answer = try await client.api(method, path, token: token, json: body)
                #expect(answer.status == .badRequest, "\(path)")
                let error = try json(answer)
                #expect(error["errorCode"] as? Int == 4_000_227, "\(path): \(String(buffer: answer.body))")
                #expect(
                    error["errorMessage"] as? String
                        == "Invalid request. Assigned transactions aren't supported by this endpoint.")
            }
            // The purchaser's own transaction is extended as any.
            let own = try json(
                try await client.api(
                    .put, "/inApps/v1/subscriptions/extend/\(yearly.id)", token: token,
                    json: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r-2"}"#))
            #expect(own["success"] as? Bool == true)
        }
    }

    @Test func extensionsTokensAndConsumptionAreKept() async throws {
        let bearer = BearerToken()
        let fixture = try await Self.fixture(bearer)
        let monthly = try await fixture.buy(ServerFixture.monthly).transaction
        let gems = try await fixture.buy(ServerFixture.gems).transaction.id
        let token = try bearer.make()
        let before = try #require(
            try await fixture.service.serverAPI.transaction(id: monthly.id)?.details.expiresDate)
        try await fixture.test { client in
            let extend = #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r-1"}"#
            let first = try json(
                try await client.api(.put, "/inApps/v1/subscriptions/extend/\(monthly.id)", token: token, json: extend))
            #expect(first["success"] as? Bool == true && first["originalTransactionId"] as? String == monthly.id)
            let again = try json(
                try await client.api(.put, "/inApps/v1/subscriptions/extend/\(monthly.id)", token: token, json: extend))
            #expect(again["effectiveDate"] as? Int == first["effectiveDate"] as? Int)
            _ = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(monthly.id)", token: token,
                json: #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r-2"}"#)
            let third = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(monthly.id)", token: token,
                json: #"{"extendByDays":3,"extendReasonCode":1,"requestIdentifier":"r-3"}"#)
            #expect(third.status == .forbidden)
            #expect(try json(third)["errorCode"] as? Int == 4_030_005)
            let tooLong = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(monthly.id)", token: token,
                json: #"{"extendByDays":91,"extendReasonCode":1,"requestIdentifier":"r-4"}"#)
            #expect(try json(tooLong)["errorCode"] as? Int == 4_000_009)
            let notSubscription = try await client.api(
                .put, "/inApps/v1/subscriptions/extend/\(gems)", token: token,
                json: #"{"extendByDays":1,"extendReasonCode":0,"requestIdentifier":"r-5"}"#)
            #expect(notSubscription.status == .forbidden)
            #expect(try json(notSubscription)["errorCode"] as? Int == 4_030_004)

            let uuid = "7e3fb20b-4cdb-47cc-936d-99d65f608138"
            let set = try await client.api(
                .put, "/inApps/v1/transactions/\(monthly.id)/appAccountToken", token: token,
                json: #"{"appAccountToken":"\#(uuid)"}"#)
            #expect(set.status == .ok)
            let bad = try await client.api(
                .put, "/inApps/v1/transactions/\(monthly.id)/appAccountToken", token: token,
                json: #"{"appAccountToken":"nope"}"#)
            #expect(try json(bad)["errorCode"] as? Int == 4_000_183)
            let info = try json(try await client.api(.get, "/inApps/v1/transactions/\(monthly.id)", token: token))
            #expect(
                try Self.payload(try #require(info["signedTransactionInfo"] as? String))["appAccountToken"] as? String
                    == uuid)

            let consumption =
                #"{"customerConsented":true,"sampleContentProvided":false,"deliveryStatus":"DELIVERED","consumptionPercentage":50000}"#
            let sent = try await client.api(
                .put, "/inApps/v2/transactions/consumption/\(gems)", token: token, json: consumption)
            #expect(sent.status == .accepted)
            let refused = try await client.api(
                .put, "/inApps/v2/transactions/consumption/\(gems)", token: token,
                json: #"{"customerConsented":false,"sampleContentProvided":false,"deliveryStatus":"DELIVERED"}"#)
            #expect(try json(refused)["errorCode"] as? Int == 4_000_035)
            let reports = try await client.object(.get, "/admin/consumption", admin: true)
            let report = try #require((reports["reports"] as? [[String: Any]])?.first)
            #expect(
                report["transactionId"] as? String == gems && (report["request"] as? String)?.contains("50000") == true)
        }
        let after = try #require(try await fixture.service.serverAPI.transaction(id: monthly.id)?.details.expiresDate)
        #expect(after > before)
    }

    @Test func adminRegistersKeysThatSurviveARestart() async throws {
        let bearer = BearerToken()
        let fixture = try await ServerFixture()
        let id = try await fixture.buy(ServerFixture.removeAds).transaction.id
        let token = try bearer.make()
        try await fixture.test { client in
            #expect(try await client.api(.get, "/inApps/v1/transactions/\(id)", token: token).status == .unauthorized)
            let body = try JSONSerialization.data(withJSONObject: [
                "issuerId": BearerToken.issuer, "keyId": BearerToken.keyId,
                "key": bearer.key.pemRepresentation,
            ])
            let created = try await client.send(
                .post, "/admin/api-keys", json: String(decoding: body, as: UTF8.self), admin: true)
            #expect(created.status == .created, "\(String(buffer: created.body))")
            #expect(try await client.api(.get, "/inApps/v1/transactions/\(id)", token: token).status == .ok)
            let invalid = try await client.send(
                .post, "/admin/api-keys", json: #"{"issuerId":"a","keyId":"b","key":"not a key"}"#, admin: true)
            #expect(invalid.status == .unprocessableContent)
        }
        let restarted = try await ServerFixture(directory: fixture.directory)
        let status = try await restarted.test { client in
            try await client.api(.get, "/inApps/v1/transactions/\(id)", token: token).status
        }
        #expect(status == .ok)
    }
}

import AsyncHTTPClient
import Foundation
import NIOCore
import ServerRecords
import StoreCore
import StoreEngine
import StoreSigning

/// One request to the developer's Get Retention Message endpoint, as the App Store sends it: a
/// POST of `{"signedPayload"}` answered within Apple's time limit with a `RealtimeResponseBody`.
enum RealtimeCall {
    /// Apple: "your server must respond to requests within approximately 700 ms".
    static let timeout: Duration = .milliseconds(700)

    struct Outcome: Sendable {
        let result: SendAttemptResult
        let detail: String?
        let latency: Duration
        let body: RealtimeResponseBody?
    }

    static func send(_ signedPayload: String, to url: String, client: HTTPClient) async -> Outcome {
        let clock = ContinuousClock()
        let start = clock.now
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "storefront-retention")
        request.body = .bytes(ByteBuffer(data: JSONBody.data(RealtimeRequestBody(signedPayload: signedPayload))))
        do {
            let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout / .milliseconds(1))))
            let bytes = try await response.body.collect(upTo: 64 * 1024)
            let latency = clock.now - start
            let status = Int(response.status.code)
            guard (200..<300).contains(status) else {
                return Outcome(
                    result: .unsuccessfulHTTPResponseCode, detail: "HTTP \(status)", latency: latency, body: nil)
            }
            guard latency <= timeout else {
                return Outcome(result: .timedOut, detail: "answered after \(latency)", latency: latency, body: nil)
            }
            guard let body = try? JSONDecoder().decode(RealtimeResponseBody.self, from: Data(buffer: bytes)) else {
                return Outcome(
                    result: .invalidResponse, detail: "the answer is not a RealtimeResponseBody", latency: latency,
                    body: nil)
            }
            return Outcome(result: .success, detail: nil, latency: latency, body: body)
        } catch {
            let outcome = NotificationPost.outcome(of: error)
            return Outcome(result: outcome.result, detail: outcome.detail, latency: clock.now - start, body: nil)
        }
    }

    /// A client for one burst of requests, shut down after it: real-time requests are rare (a
    /// customer cancelling, a performance test) and no connection is worth keeping between them.
    static func withClient<T: Sendable>(_ body: (HTTPClient) async -> T) async -> T {
        let client = HTTPClient(
            eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: NotificationDeliverer.clientConfiguration)
        let result = await body(client)
        try? await client.shutdown()
        return result
    }
}

extension StoreService {
    /// The signed `DecodedRealtimeRequestBody` of one request.
    func signedRealtimeRequest(originalTransactionId: String, productId: String, locale: String) -> String {
        signer.sign(
            DecodedRealtimeRequestBody(
                originalTransactionId: originalTransactionId, appAppleId: realtimeAppAppleId, productId: productId,
                userLocale: locale, requestIdentifier: UUID().uuidString.lowercased(),
                environment: store.environment.rawValue, signedDate: clock.now().epochMilliseconds))
    }

    /// The app's Apple ID in a real-time request, which Apple's libraries require in every
    /// environment: the number production reports.
    var realtimeAppAppleId: Int64 {
        Int64(SimulatedStore.appTransactionId(bundleId: catalog.bundleId, account: "")).map { $0 % 10_000_000_000 } ?? 0
    }

    /// What the cancellation sheet shows for `account`'s subscription to `productId`: the real-time
    /// URL's choice when it answers in time with an approved message, else the default message for
    /// the product and locale, else nothing.
    func cancellationMessage(account: String, productId: String, locale: String) async throws -> CancellationMessage? {
        let statuses = try await store.serverAPI.subscriptionStatuses(account: account)
        guard let status = statuses.first(where: { $0.latest.transaction.productId == productId }) else { return nil }
        var reason: String?
        if let url = try await store.retention.realtimeURL() {
            let payload = signedRealtimeRequest(
                originalTransactionId: status.originalTransactionId, productId: productId, locale: locale)
            let outcome = await RealtimeCall.withClient { await RealtimeCall.send(payload, to: url, client: $0) }
            if let body = outcome.body {
                let (chosen, why) = try await choice(body, productId: productId)
                if let chosen { return chosen }
                reason = why
            } else {
                reason = "the real-time URL failed (\(outcome.result.rawValue): \(outcome.detail ?? "no detail"))"
            }
        }
        guard let id = try await store.retention.defaultMessage(productId: productId, locale: locale),
            let message = try await approvedMessage(id)
        else { return nil }
        return shown(message, source: .default, reason: reason)
    }

    /// The message a real-time answer chose, or why it cannot be shown.
    func choice(_ body: RealtimeResponseBody, productId: String) async throws -> (CancellationMessage?, String?) {
        let chosen = [body.message != nil, body.alternateProduct != nil, body.promotionalOffer != nil].filter { $0 }
        guard chosen.count == 1 else {
            return (nil, "the real-time answer chose \(chosen.count) options; it must choose exactly one")
        }
        let messageId =
            body.message?.messageIdentifier ?? body.alternateProduct?.messageIdentifier
            ?? body.promotionalOffer?.messageIdentifier
        guard let messageId, let id = UUID(uuidString: messageId), let message = try await approvedMessage(id) else {
            return (nil, "the real-time answer names no APPROVED message with APPROVED images")
        }
        if let alternate = body.alternateProduct {
            let group = catalog.product(id: productId)?.subscription?.group
            guard let other = alternate.productId, other != productId,
                let product = catalog.product(id: other), product.type == .autoRenewable,
                product.subscription?.group == group
            else { return (nil, "the real-time answer's alternate product is not another plan of the group") }
            guard message.imageIds.isEmpty else { return (nil, "a switch-plan message cannot show images") }
            return (shown(message, source: .realtime, switchTo: other), nil)
        }
        if let offer = body.promotionalOffer {
            guard
                let offerId = offer.promotionalOfferSignatureV1?.offerIdentifier
                    ?? offer.promotionalOfferSignatureV2.flatMap(Self.offerIdentifier)
            else { return (nil, "the real-time answer's promotional offer has no readable signature") }
            guard message.imageIds.isEmpty else { return (nil, "a promotional-offer message cannot show images") }
            return (shown(message, source: .realtime, offer: offerId), nil)
        }
        return (shown(message, source: .realtime), nil)
    }

    /// A message that is APPROVED and whose images all are: the only kind the App Store shows.
    func approvedMessage(_ id: UUID) async throws -> RetentionMessage? {
        guard let message = try await store.retention.message(id), message.state == .approved else { return nil }
        let images = try await store.retention.images(message.imageIds)
        guard images.count == Set(message.imageIds).count, images.allSatisfy({ $0.state == .approved }) else {
            return nil
        }
        return message
    }

    func shown(
        _ message: RetentionMessage, source: CancellationMessage.Source, reason: String? = nil,
        switchTo: String? = nil, offer: String? = nil
    ) -> CancellationMessage {
        CancellationMessage(
            header: message.header, body: message.body, imageAltText: message.image?.altText,
            headerAboveImage: message.headerPosition == .aboveImage, bulletPoints: message.bulletPoints.map(\.text),
            switchToProductId: switchTo, promotionalOfferId: offer, source: source, fallbackReason: reason)
    }

    /// The `offerIdentifier` claim of a version 2 promotional offer signature (a JWS), unverified:
    /// the App Store checks it with the developer's key, which this server does not hold.
    static func offerIdentifier(_ jws: String) -> String? {
        let parts = jws.split(separator: ".")
        guard parts.count == 3, let data = Base64URL.decode(String(parts[1])),
            let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return nil }
        return object["offerIdentifier"] as? String
    }
}

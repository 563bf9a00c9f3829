import Foundation

// The Retention Messaging API's bodies, as Apple's server libraries name them. Request types
// read every field as optional and ignore unknown ones, as Apple's do; the routes check them and
// refuse with Apple's codes.

/// Upload Message.
struct UploadMessageRequestBody: Codable, Sendable {
    struct Image: Codable, Sendable {
        let imageIdentifier: String?
        let altText: String?
    }

    struct BulletPoint: Codable, Sendable {
        let text: String?
        let imageIdentifier: String?
        let altText: String?
    }

    let header: String?
    let body: String?
    let image: Image?
    let headerPosition: String?
    let bulletPoints: [BulletPoint]?
}

/// `PUT /admin/retention/…/review`: App Review's decision, which the simulated store has no
/// reviewer to make.
struct RetentionReviewRequest: Codable, Sendable, KnownFields {
    let state: String

    enum CodingKeys: String, CodingKey, CaseIterable {
        case state
    }
}

/// Get Message List.
struct GetMessageListResponse: Codable, Sendable {
    struct Item: Codable, Sendable {
        let messageIdentifier: String
        let messageState: String
    }

    let messageIdentifiers: [Item]
}

/// Get Image List.
struct GetImageListResponse: Codable, Sendable {
    struct Item: Codable, Sendable {
        let imageIdentifier: String
        let imageState: String
        let imageSize: String
    }

    let imageIdentifiers: [Item]
}

/// Configure Default Message's request and Get Default Message's answer.
struct DefaultConfigurationBody: Codable, Sendable {
    let messageIdentifier: String?
}

/// Configure Realtime URL's request and Get Realtime URL's answer.
struct RealtimeUrlBody: Codable, Sendable {
    let realtimeURL: String?
}

/// Initiate Performance Test.
struct PerformanceTestRequest: Codable, Sendable {
    let originalTransactionId: String?
}

/// The parameters of every performance test this server runs.
struct PerformanceTestConfig: Codable, Sendable, Hashable {
    let maxConcurrentRequests: Int
    let totalRequests: Int
    let totalDuration: Int64
    let responseTimeThreshold: Int64
    let successRateThreshold: Int
}

struct PerformanceTestResponse: Codable, Sendable {
    let config: PerformanceTestConfig
    let requestId: String
}

/// Get Performance Test Results.
struct PerformanceTestResultResponse: Codable, Sendable {
    struct ResponseTimes: Codable, Sendable, Hashable {
        let average: Int64
        let p50: Int64
        let p90: Int64
        let p95: Int64
        let p99: Int64
    }

    let config: PerformanceTestConfig
    let target: String
    /// `PENDING`, `PASS` or `FAIL`.
    let result: String
    let successRate: Int?
    let numPending: Int
    let responseTimes: ResponseTimes?
    /// Failed requests by Apple's `SendAttemptResult`.
    let failures: [String: Int]?
}

/// What the App Store POSTs to the Get Retention Message endpoint.
struct RealtimeRequestBody: Codable, Sendable {
    let signedPayload: String
}

/// `DecodedRealtimeRequestBody`: the signed payload of a real-time request.
struct DecodedRealtimeRequestBody: Codable, Sendable {
    let originalTransactionId: String
    let appAppleId: Int64
    let productId: String
    let userLocale: String
    let requestIdentifier: String
    let environment: String
    let signedDate: Int64
}

/// `RealtimeResponseBody`: the endpoint's choice, one of three.
struct RealtimeResponseBody: Codable, Sendable {
    struct Message: Codable, Sendable {
        let messageIdentifier: String?
    }

    struct AlternateProduct: Codable, Sendable {
        let messageIdentifier: String?
        let productId: String?
    }

    struct PromotionalOffer: Codable, Sendable {
        struct SignatureV1: Codable, Sendable {
            let offerIdentifier: String?
            let productId: String?
        }

        let messageIdentifier: String?
        let promotionalOfferSignatureV2: String?
        let promotionalOfferSignatureV1: SignatureV1?
    }

    let message: Message?
    let alternateProduct: AlternateProduct?
    let promotionalOffer: PromotionalOffer?
}

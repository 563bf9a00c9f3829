import Foundation

/// Where a retention message or image is in App Review: Apple's `MessageState` and `ImageState`.
/// The simulated store has no reviewer and approves what it accepts at once (docs/api.md).
public enum ReviewState: String, Codable, Sendable, CaseIterable {
    case pending = "PENDING"
    case approved = "APPROVED"
    case rejected = "REJECTED"
}

/// Apple's `imageSize`: a message's main image, or a bullet point's icon.
public enum RetentionImageSize: String, Codable, Sendable, CaseIterable {
    case fullSize = "FULL_SIZE"
    case bulletPoint = "BULLET_POINT"
}

/// An uploaded image as the store keeps it, less its bytes.
public struct RetentionImage: Sendable, Hashable {
    public let id: UUID
    public let state: ReviewState
    public let size: RetentionImageSize

    public init(id: UUID, state: ReviewState, size: RetentionImageSize) {
        self.id = id
        self.state = state
        self.size = size
    }
}

/// Apple's `headerPosition`: the header above the body (the default) or above the image.
public enum RetentionHeaderPosition: String, Codable, Sendable, CaseIterable {
    case aboveBody = "ABOVE_BODY"
    case aboveImage = "ABOVE_IMAGE"
}

/// An image a message shows, with the text that stands for it (all a terminal can show).
public struct RetentionImageUse: Codable, Sendable, Hashable {
    public let imageIdentifier: UUID
    public let altText: String

    public init(imageIdentifier: UUID, altText: String) {
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// One item of a message's bulleted list.
public struct RetentionBulletPoint: Codable, Sendable, Hashable {
    public let text: String
    public let imageIdentifier: UUID
    public let altText: String

    public init(text: String, imageIdentifier: UUID, altText: String) {
        self.text = text
        self.imageIdentifier = imageIdentifier
        self.altText = altText
    }
}

/// An uploaded retention message: Apple's `UploadMessageRequestBody` with its identifier and state.
public struct RetentionMessage: Codable, Sendable, Hashable {
    public let id: UUID
    public let state: ReviewState
    public let header: String
    public let body: String
    public let image: RetentionImageUse?
    /// Nil: Apple's default, above the body.
    public let headerPosition: RetentionHeaderPosition?
    public let bulletPoints: [RetentionBulletPoint]

    public init(
        id: UUID, state: ReviewState, header: String, body: String, image: RetentionImageUse?,
        headerPosition: RetentionHeaderPosition?, bulletPoints: [RetentionBulletPoint]
    ) {
        self.id = id
        self.state = state
        self.header = header
        self.body = body
        self.image = image
        self.headerPosition = headerPosition
        self.bulletPoints = bulletPoints
    }

    /// The same message in another review state.
    public func reviewed(_ state: ReviewState) -> RetentionMessage {
        RetentionMessage(
            id: id, state: state, header: header, body: body, image: image, headerPosition: headerPosition,
            bulletPoints: bulletPoints)
    }

    /// Every image the message shows: its own and its bullet points'.
    public var imageIds: [UUID] { (image.map { [$0.imageIdentifier] } ?? []) + bulletPoints.map(\.imageIdentifier) }
}

/// Why the store refused a retention change, each one of Apple's error codes.
public enum RetentionRefusal: Error, Sendable, Hashable {
    case alreadyExists
    case limitReached
    case notFound
    case imageNotFound(UUID)
    case imageWrongSize(UUID, RetentionImageSize)
    case imageInUse
    case messageNotApproved
    case imageNotApproved
}

/// A performance test of the real-time URL: what was asked, and its result once it finished.
public struct RetentionPerformanceTest: Codable, Sendable, Hashable {
    public let id: String
    public let target: String
    public let startedAt: Date
    /// The result as Apple's `PerformanceTestResultResponse` JSON; nil while the test runs.
    public let result: String?

    public init(id: String, target: String, startedAt: Date, result: String?) {
        self.id = id
        self.target = target
        self.startedAt = startedAt
        self.result = result
    }
}

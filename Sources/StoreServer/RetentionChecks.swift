import Foundation
import ServerRecords

/// The limits Apple documents for retention messages and images, and the checks that refuse a
/// request past them with Apple's codes.
enum RetentionChecks {
    static let headerLimit = 66
    static let bodyLimit = 144
    static let altTextLimit = 150
    static let bulletPointLimit = 5
    static let bulletTextLimit = 66
    /// Apple documents no byte limit for an image; a full-size PNG (3840 pixels wide) fits in this.
    static let imageByteLimit = 5 * 1024 * 1024

    /// A text's length as Apple's documentation and libraries count it: in characters, Unicode
    /// code points (Python's `len`), not the grapheme clusters a reader sees (a flag is two).
    static func length(_ text: String) -> Int { text.unicodeScalars.count }

    /// A message as the store keeps it, or Apple's refusal of the request.
    static func message(_ id: UUID, _ body: UploadMessageRequestBody) throws(AppStoreAPIError) -> RetentionMessage {
        guard let header = body.header, !header.isEmpty else { throw invalid("header is required") }
        guard let text = body.body, !text.isEmpty else { throw invalid("body is required") }
        guard length(header) <= headerLimit else {
            throw AppStoreAPIError(
                .headerTooLong, "Header too long: \(length(header)) characters, at most \(headerLimit).")
        }
        guard length(text) <= bodyLimit else {
            throw AppStoreAPIError(.bodyTooLong, "Body too long: \(length(text)) characters, at most \(bodyLimit).")
        }
        let image = try body.image.map { image throws(AppStoreAPIError) in
            RetentionImageUse(
                imageIdentifier: try uuid(image.imageIdentifier, "image.imageIdentifier"),
                altText: try altText(image.altText, "image.altText"))
        }
        let position = try body.headerPosition.map { text throws(AppStoreAPIError) in
            guard let position = RetentionHeaderPosition(rawValue: text) else {
                throw invalid("headerPosition \(text.prefix(20).debugDescription) is not ABOVE_BODY or ABOVE_IMAGE")
            }
            return position
        }
        guard position != .aboveImage || image != nil else {
            throw AppStoreAPIError(
                .aboveImageRequiresAnImage, "Header position ABOVE_IMAGE requires an image; include image.")
        }
        let bullets = body.bulletPoints ?? []
        guard bullets.count <= bulletPointLimit else {
            throw AppStoreAPIError(
                .tooManyBulletPoints, "Too many bullet points: \(bullets.count), at most \(bulletPointLimit).")
        }
        let points = try bullets.enumerated().map { index, point throws(AppStoreAPIError) in
            guard let text = point.text, !text.isEmpty else { throw invalid("bulletPoints[\(index)].text is required") }
            guard length(text) <= bulletTextLimit else {
                throw AppStoreAPIError(
                    .bulletPointTextTooLong,
                    "Bullet point text too long: bulletPoints[\(index)].text has \(length(text)) characters, at most \(bulletTextLimit)."
                )
            }
            return RetentionBulletPoint(
                text: text, imageIdentifier: try uuid(point.imageIdentifier, "bulletPoints[\(index)].imageIdentifier"),
                altText: try altText(point.altText, "bulletPoints[\(index)].altText"))
        }
        return RetentionMessage(
            id: id, state: .approved, header: header, body: text, image: image, headerPosition: position,
            bulletPoints: points)
    }

    /// An identifier in the path: a UUID, or Apple's general 400.
    static func pathId(_ text: String?, _ name: String) throws(AppStoreAPIError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else {
            throw invalid("\(name) must be a UUID")
        }
        return id
    }

    /// A locale as Apple spells one (`en-US`, `zh-Hans-CN`, `en_US`).
    static func locale(_ text: String?) throws(AppStoreAPIError) -> String {
        guard let text, !text.isEmpty, length(text) <= 35,
            text.split(separator: "-", omittingEmptySubsequences: false).flatMap({
                $0.split(separator: "_", omittingEmptySubsequences: false)
            }).allSatisfy({
                !$0.isEmpty && $0.count <= 8 && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) }
            }),
            text.first?.isLetter == true
        else {
            throw AppStoreAPIError(.invalidLocale, "Invalid locale: use a language and region such as en-US.")
        }
        return text
    }

    private static func uuid(_ text: String?, _ field: String) throws(AppStoreAPIError) -> UUID {
        guard let text, let id = UUID(uuidString: text) else { throw invalid("\(field) must be a UUID") }
        return id
    }

    private static func altText(_ text: String?, _ field: String) throws(AppStoreAPIError) -> String {
        guard let text, !text.isEmpty else { throw invalid("\(field) is required") }
        guard length(text) <= altTextLimit else {
            throw AppStoreAPIError(
                .altTextTooLong, "Alt text too long: \(field) has \(length(text)) characters, at most \(altTextLimit).")
        }
        return text
    }

    static func invalid(_ why: String) -> AppStoreAPIError {
        AppStoreAPIError(.generalBadRequest, "Invalid request. \(why).")
    }

    /// Apple's refusal of a store's retention refusal.
    static func error(_ refusal: RetentionRefusal, image: Bool) -> AppStoreAPIError {
        switch refusal {
        case .alreadyExists:
            image
                ? AppStoreAPIError(.imageAlreadyExists, "Image already exists: upload it under a new identifier.")
                : AppStoreAPIError(.messageAlreadyExists, "Message already exists: upload it under a new identifier.")
        case .limitReached:
            image
                ? AppStoreAPIError(
                    .maximumNumberOfImagesReached, "Maximum number of images reached; delete one first.")
                : AppStoreAPIError(
                    .maximumNumberOfMessagesReached, "Maximum number of messages reached; delete one first.")
        case .notFound:
            image
                ? AppStoreAPIError(.imageNotFound, "Image not found.")
                : AppStoreAPIError(.messageNotFound, "Message not found.")
        case .imageNotFound(let id):
            AppStoreAPIError(.imageNotFound, "Image not found: \(id.uuidString.lowercased()); upload it first.")
        case .imageWrongSize(let id, let size):
            AppStoreAPIError(
                .badRequestImageSize,
                "Invalid image size: image \(id.uuidString.lowercased()) is not a \(size.rawValue) image, which its place needs."
            )
        case .imageInUse:
            AppStoreAPIError(.imageInUse, "Image in use: delete the messages that show it first.")
        case .messageNotApproved:
            AppStoreAPIError(.messageNotApproved, "Message not approved: only an APPROVED message can be a default.")
        case .imageNotApproved:
            AppStoreAPIError(.imageNotApproved, "Image not approved: the message shows an image that is not APPROVED.")
        }
    }
}

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

    /// A message as the store keeps it, or Apple's refusal of the request.
    static func message(_ id: UUID, _ body: UploadMessageRequestBody) throws(AppStoreAPIError) -> RetentionMessage {
        guard let header = body.header, !header.isEmpty else { throw invalid("header is required") }
        guard let text = body.body, !text.isEmpty else { throw invalid("body is required") }
        guard header.count <= headerLimit else {
            throw AppStoreAPIError(
                .headerTooLong, "Header too long: \(header.count) characters, at most \(headerLimit).")
        }
        guard text.count <= bodyLimit else {
            throw AppStoreAPIError(.bodyTooLong, "Body too long: \(text.count) characters, at most \(bodyLimit).")
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
            guard text.count <= bulletTextLimit else {
                throw AppStoreAPIError(
                    .bulletPointTextTooLong,
                    "Bullet point text too long: bulletPoints[\(index)].text has \(text.count) characters, at most \(bulletTextLimit)."
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
        guard let text, !text.isEmpty, text.count <= 35,
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
        guard text.count <= altTextLimit else {
            throw AppStoreAPIError(
                .altTextTooLong, "Alt text too long: \(field) has \(text.count) characters, at most \(altTextLimit).")
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

/// What Apple requires of an uploaded image: a PNG without transparency, full-size images 3840
/// pixels wide and 160 to 2160 high. Apple gives no dimensions for a bullet point's icon; this
/// server asks for a square of at most 1024 pixels.
enum PNGCheck {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// nil when `data` is an acceptable image of `size`, else why not.
    static func problem(_ data: Data, size: RetentionImageSize) -> String? {
        let bytes = [UInt8](data)
        guard bytes.count >= 33, Array(bytes[0..<8]) == signature,
            String(decoding: bytes[12..<16], as: UTF8.self) == "IHDR"
        else { return "not a PNG file (no PNG signature and IHDR chunk)" }
        let width = be32(bytes, 16)
        let height = be32(bytes, 20)
        let colorType = bytes[25]
        if colorType == 4 || colorType == 6 || hasChunk("tRNS", bytes) {
            return "the PNG has transparency (an alpha channel or tRNS chunk); upload an opaque image"
        }
        switch size {
        case .fullSize where width != 3840 || !(160...2160).contains(height):
            return "a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high; this one is \(width)×\(height)"
        case .bulletPoint where width != height || width > 1024 || width == 0:
            return "a BULLET_POINT image is square, at most 1024×1024; this one is \(width)×\(height)"
        default: return nil
        }
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }

    /// Walks the chunks after the signature (length, type, data, CRC) until IEND or the end.
    private static func hasChunk(_ name: String, _ bytes: [UInt8]) -> Bool {
        var at = 8
        while at + 8 <= bytes.count {
            let length = be32(bytes, at)
            let type = String(decoding: bytes[at + 4..<at + 8], as: UTF8.self)
            if type == name { return true }
            if type == "IEND" { return false }
            at += 12 + length
        }
        return false
    }
}

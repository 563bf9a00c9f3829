import Foundation
import Hummingbird
import ServerRecords
import StoreEngine
import StoreKitModel

/// Apple's Retention Messaging API under `/inApps/v1/messaging`: messages, images and default
/// messages. The simulated store has no App Review: what it accepts is `APPROVED` at once.
enum RetentionRoutes {
    static func add(_ api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        api.put("/v1/messaging/image/{imageIdentifier}") { request, context in
            let id = try RetentionChecks.pathId(context.parameters.get("imageIdentifier"), "imageIdentifier")
            let size = try imageSize(request.uri.queryParameters[values: "imageSize"])
            let data: Data
            do {
                data = try await BodyReader.bytes(request, limit: RetentionChecks.imageByteLimit)
            } catch let error as APIError where error.status == .contentTooLarge {
                throw AppStoreAPIError(
                    .invalidImage, "Invalid image: larger than \(RetentionChecks.imageByteLimit / 1024 / 1024) MiB.")
            }
            if let problem = PNGCheck.problem(data, size: size) {
                throw AppStoreAPIError(.invalidImage, "Invalid image: \(problem).")
            }
            let image = RetentionImage(id: id, state: .approved, size: size)
            if case .failure(let refusal) = try await service.retention.uploadImage(
                image, png: data, limit: RetentionMessaging.retentionLimit)
            {
                throw RetentionChecks.error(refusal, image: true)
            }
            return empty
        }
        api.delete("/v1/messaging/image/{imageIdentifier}") { _, context in
            let id = try RetentionChecks.pathId(context.parameters.get("imageIdentifier"), "imageIdentifier")
            if case .failure(let refusal) = try await service.retention.deleteImage(id) {
                throw RetentionChecks.error(refusal, image: true)
            }
            return empty
        }
        api.get("/v1/messaging/image/list") { _, _ in
            JSONBody.response(
                GetImageListResponse(
                    imageIdentifiers: try await service.retention.images().map {
                        .init(
                            imageIdentifier: $0.id.uuidString.lowercased(), imageState: $0.state.rawValue,
                            imageSize: $0.size.rawValue)
                    }))
        }
        api.put("/v1/messaging/message/{messageIdentifier}") { request, context in
            let id = try RetentionChecks.pathId(context.parameters.get("messageIdentifier"), "messageIdentifier")
            let (body, _) = try await BodyReader.decode(UploadMessageRequestBody.self, from: request, limit: limit)
            let message = try RetentionChecks.message(id, body)
            if case .failure(let refusal) = try await service.retention.uploadMessage(
                message, limit: RetentionMessaging.retentionLimit)
            {
                throw RetentionChecks.error(refusal, image: false)
            }
            return empty
        }
        api.delete("/v1/messaging/message/{messageIdentifier}") { _, context in
            let id = try RetentionChecks.pathId(context.parameters.get("messageIdentifier"), "messageIdentifier")
            guard try await service.retention.deleteMessage(id) else {
                throw RetentionChecks.error(.notFound, image: false)
            }
            return empty
        }
        api.get("/v1/messaging/message/list") { _, _ in
            JSONBody.response(
                GetMessageListResponse(
                    messageIdentifiers: try await service.retention.messages().map {
                        .init(messageIdentifier: $0.id.uuidString.lowercased(), messageState: $0.state.rawValue)
                    }))
        }
        addDefaults(api, service)
    }

    static func addDefaults(_ api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        api.put("/v1/messaging/default/{productId}/{locale}") { request, context in
            let (productId, locale) = try productAndLocale(context, service.catalog)
            let (body, _) = try await BodyReader.decode(DefaultConfigurationBody.self, from: request, limit: limit)
            let messageId = try RetentionChecks.pathId(body.messageIdentifier, "messageIdentifier")
            if case .failure(let refusal) = try await service.retention.setDefaultMessage(
                productId: productId, locale: locale, messageId: messageId)
            {
                throw RetentionChecks.error(refusal, image: false)
            }
            return empty
        }
        api.get("/v1/messaging/default/{productId}/{locale}") { _, context in
            let (productId, locale) = try productAndLocale(context, service.catalog)
            guard let id = try await service.retention.defaultMessage(productId: productId, locale: locale) else {
                throw defaultNotFound
            }
            return JSONBody.response(DefaultConfigurationBody(messageIdentifier: id.uuidString.lowercased()))
        }
        api.delete("/v1/messaging/default/{productId}/{locale}") { _, context in
            let (productId, locale) = try productAndLocale(context, service.catalog)
            guard try await service.retention.deleteDefaultMessage(productId: productId, locale: locale) else {
                throw defaultNotFound
            }
            return empty
        }
    }

    /// App Review, done by hand: `/admin` sets a message's or an image's state.
    static func add(admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        admin.put("/retention/messages/{messageIdentifier}/review") { request, context in
            let (id, state) = try await review(request, context, "messageIdentifier", service)
            guard try await service.retention.reviewMessage(id, state) else {
                throw APIError.notFound("no message \(id.uuidString.lowercased())")
            }
            return JSONBody.response(
                GetMessageListResponse.Item(messageIdentifier: id.uuidString.lowercased(), messageState: state.rawValue)
            )
        }
        admin.put("/retention/images/{imageIdentifier}/review") { request, context in
            let (id, state) = try await review(request, context, "imageIdentifier", service)
            guard try await service.retention.reviewImage(id, state) else {
                throw APIError.notFound("no image \(id.uuidString.lowercased())")
            }
            return JSONBody.response(
                ReviewedImage(imageIdentifier: id.uuidString.lowercased(), imageState: state.rawValue))
        }
    }

    struct ReviewedImage: Encodable {
        let imageIdentifier: String
        let imageState: String
    }

    static func review(_ request: Request, _ context: BasicRequestContext, _ name: String, _ service: StoreService)
        async throws -> (UUID, ReviewState)
    {
        guard let text = try StoreRoutes.pathParameter(context, name), let id = UUID(uuidString: text) else {
            throw APIError.badRequest("\(name) must be a UUID", field: name)
        }
        let (body, _) = try await BodyReader.decode(
            RetentionReviewRequest.self, from: request, limit: service.configuration.bodyLimit)
        guard let state = ReviewState(rawValue: body.state) else {
            throw APIError.invalid(
                "state \(body.state.prefix(20).debugDescription) is not PENDING, APPROVED or REJECTED", field: "state")
        }
        return (id, state)
    }

    static let defaultNotFound = AppStoreAPIError(
        .defaultMessageNotFound, "Default message not found for this product and locale.")

    static var empty: Response { Response(status: .ok, headers: [.contentLength: "0"]) }

    /// `FULL_SIZE` when absent, as Apple's clients send none for a message's image.
    static func imageSize(_ values: [Substring]) throws(AppStoreAPIError) -> RetentionImageSize {
        guard let text = values.first else { return .fullSize }
        guard values.count == 1, let size = RetentionImageSize(rawValue: String(text)) else {
            throw AppStoreAPIError(.badRequestImageSize, "Invalid image size: use FULL_SIZE or BULLET_POINT.")
        }
        return size
    }

    /// A default message's product, an auto-renewable subscription of the catalog, and locale.
    static func productAndLocale(_ context: BasicRequestContext, _ catalog: Catalog) throws -> (String, String) {
        let productId = try StoreRoutes.pathParameter(context, "productId") ?? ""
        guard catalog.product(id: productId)?.type == .autoRenewable else {
            throw AppStoreAPIError(
                .invalidProductId, "Invalid product id: \(productId.prefix(64)) is not an auto-renewable subscription.")
        }
        return (productId, try RetentionChecks.locale(try StoreRoutes.pathParameter(context, "locale")))
    }
}

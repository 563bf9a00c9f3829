import Foundation
import Hummingbird
import ServerRecords
import StoreAPI
import StoreCore

/// Configure, Get and Delete Realtime URL, and the performance test of that URL.
enum RetentionRealtimeRoutes {
    static let urlLimit = 256

    static func add(_ api: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        api.put("/v1/messaging/realtime/url") { request, _ in
            let (body, _) = try await BodyReader.decode(RealtimeUrlBody.self, from: request, limit: limit)
            let url = try checkedURL(body.realtimeURL)
            // Apple sets a production URL only after it passed a performance test.
            if service.store.environment == .production {
                let passed = try await service.retention.performanceTests().contains {
                    $0.target == url && $0.result.map(decodeResult)??.result == "PASS"
                }
                guard passed else {
                    throw AppStoreAPIError(
                        .forbiddenNoPassingTest, "Forbidden: run a performance test of this URL that passes first.")
                }
            }
            try await service.retention.setRealtimeURL(url)
            return RetentionRoutes.empty
        }
        api.get("/v1/messaging/realtime/url") { _, _ in
            guard let url = try await service.retention.realtimeURL() else { throw urlNotFound }
            return JSONBody.response(RealtimeUrlBody(realtimeURL: url))
        }
        api.delete("/v1/messaging/realtime/url") { _, _ in
            guard try await service.retention.realtimeURL() != nil else { throw urlNotFound }
            try await service.retention.setRealtimeURL(nil)
            return RetentionRoutes.empty
        }
        api.post("/v1/messaging/performanceTest") { request, _ in
            try await initiate(request, service)
        }
        api.get("/v1/messaging/performanceTest/result/{requestId}") { _, context in
            let id = try StoreRoutes.pathParameter(context, "requestId") ?? ""
            guard !id.isEmpty, id.count <= 64, id.allSatisfy({ $0.isASCII && ($0.isHexDigit || $0 == "-") }) else {
                throw AppStoreAPIError(
                    .invalidRequestId, "Invalid request id: use the requestId Initiate Performance Test returned.")
            }
            guard let test = try await service.retention.performanceTests().first(where: { $0.id == id }) else {
                throw AppStoreAPIError(.performanceTestRunNotFound, "Performance test run not found.")
            }
            guard let result = test.result.map(decodeResult) ?? nil else {
                return JSONBody.response(RetentionPerformance.pending(target: test.target))
            }
            return JSONBody.response(result)
        }
    }

    static func initiate(_ request: Request, _ service: StoreService) async throws -> Response {
        let limit = service.configuration.bodyLimit
        let (body, _) = try await BodyReader.decode(PerformanceTestRequest.self, from: request, limit: limit)
        guard let id = body.originalTransactionId, IdRules.transactionIdProblem(id) == nil else {
            throw AppStoreAPIError(
                .invalidPerformanceTestRequest, "Invalid performance test request: send an originalTransactionId.")
        }
        guard let url = try await service.retention.realtimeURL() else { throw urlNotFound }
        guard let status = try await service.serverAPI.subscriptionStatus(originalTransactionId: id) else {
            throw AppStoreAPIError.originalTransactionIdNotFound
        }
        let now = service.clock.now()
        // A test whose server died with it stops counting as running after a minute.
        if try await service.retention.performanceTests().contains(where: {
            $0.result == nil && now.timeIntervalSince($0.startedAt) < 60
        }) {
            throw AppStoreAPIError(
                .existingPerformanceTestRun, "A performance test is running; wait for its result first.")
        }
        let test = RetentionPerformanceTest(
            id: UUID().uuidString.lowercased(), target: url, startedAt: now, result: nil)
        try await service.retention.savePerformanceTest(test)
        let productId = status.latest.transaction.productId
        Task {
            let result = await RetentionPerformance.run(
                service, url: url, originalTransactionId: id, productId: productId)
            try? await service.retention.savePerformanceTest(
                RetentionPerformanceTest(
                    id: test.id, target: url, startedAt: now,
                    result: String(decoding: JSONBody.data(result), as: UTF8.self)))
        }
        return JSONBody.response(PerformanceTestResponse(config: RetentionPerformance.config, requestId: test.id))
    }

    static let urlNotFound = AppStoreAPIError(.realtimeURLNotFound, "Realtime URL not found: configure one first.")

    static func decodeResult(_ json: String) -> PerformanceTestResultResponse? {
        try? JSONDecoder().decode(PerformanceTestResultResponse.self, from: Data(json.utf8))
    }

    /// An absolute http or https URL of at most 256 characters.
    static func checkedURL(_ text: String?) throws(AppStoreAPIError) -> String {
        guard let text, text.count <= urlLimit, let url = URL(string: text),
            ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host?.isEmpty == false
        else {
            throw AppStoreAPIError(
                .badRequestRealtimeURL,
                "Invalid realtime URL: send an absolute http or https URL of at most \(urlLimit) characters.")
        }
        return text
    }

    /// The device's side: what the cancellation sheet shows (`RemoteStore.cancellationMessage`).
    static func addDeviceRoute(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        router.get("/v1/accounts/{account}/retention-message/{productId}/{locale}") { _, context in
            let account = try service.account(StoreRoutes.pathParameter(context, "account"))
            let productId = try StoreRoutes.pathParameter(context, "productId") ?? ""
            guard service.catalog.product(id: productId)?.type == .autoRenewable else {
                throw APIError.notFound("\(productId.prefix(64)) is not an auto-renewable subscription of the catalog")
            }
            let locale = try StoreRoutes.pathParameter(context, "locale") ?? ""
            return JSONBody.response(
                CancellationMessageResponse(
                    message: try await service.cancellationMessage(
                        account: account.name, productId: productId, locale: locale)))
        }
    }
}

import Foundation
import Hummingbird
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel

/// The App Store Server API under `/inApps`, at Apple's paths and with Apple's shapes, so a
/// backend's unchanged code (Apple's libraries with their base URL pointed here) works against it.
enum ServerAPIRoutes {
    static func add(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        // ServerAPIMiddleware, on the whole router, authenticates these and shapes their errors.
        let api = router.group(RouterPath(ServerAPIMiddleware<BasicRequestContext>.prefix))
        api.get("/v1/transactions/{transactionId}") { _, context in
            let id = try transactionId(context)
            guard let transaction = try await service.serverAPI.transaction(id: id) else {
                throw AppStoreAPIError.transactionIdNotFound
            }
            return JSONBody.response(TransactionInfoResponse(signedTransactionInfo: service.signedAsRead(transaction)))
        }
        for version in [1, 2] {
            api.get(RouterPath("/v\(version)/history/{transactionId}")) { request, context in
                try await history(request, context, version: version, service)
            }
        }
        api.get("/v2/refund/lookup/{transactionId}") { request, context in
            let (query, page) = try await historyPage(request, context, version: 0, service)
            return JSONBody.response(
                RefundHistoryResponse(
                    signedTransactions: page.transactions.map(service.signedAsRead),
                    revision: query.revision(after: page), hasMore: page.hasMore))
        }
        api.get("/v1/subscriptions/{transactionId}") { request, context in
            try await statuses(request, context, service)
        }
        api.get("/v1/lookup/{orderId}") { _, context in
            var found: ServerTransaction?
            if let id = try StoreRoutes.pathParameter(context, "orderId").flatMap(OrderId.transactionId(of:)) {
                found = try await service.serverAPI.transaction(id: id)
            }
            return JSONBody.response(
                OrderLookupResponse(
                    status: found == nil ? 1 : 0, signedTransactions: found.map { [service.signedAsRead($0)] } ?? []))
        }
        api.get("/v1/transactions/appTransactions/{transactionId}") { _, context in
            let account = try await service.account(ofAnyTransaction: try transactionId(context))
            let jws = service.signer.signedAppTransaction(
                try await service.store.appTransaction(account: account), appAppleId: service.appAppleId,
                at: service.clock.now())
            return JSONBody.response(AppTransactionInfoResponse(signedAppTransactionInfo: jws))
        }
        ServerAPIChanges.add(api, service)
        ServerAPIMassExtension.add(api, service)
        RetentionRoutes.add(api, service)
        RetentionRealtimeRoutes.add(api, service)
        NotificationRoutes.add(api: api, service)
    }

    static func history(_ request: Request, _ context: BasicRequestContext, version: Int, _ service: StoreService)
        async throws -> Response
    {
        let (query, page) = try await historyPage(request, context, version: version, service)
        return JSONBody.response(
            HistoryResponse(
                revision: query.revision(after: page), hasMore: page.hasMore, bundleId: service.catalog.bundleId,
                appAppleId: service.appAppleId, environment: service.store.environment,
                signedTransactions: page.transactions.map(service.signedAsRead)))
    }

    /// The page a history request asks for (`version` 0: refund history), with its query.
    static func historyPage(
        _ request: Request, _ context: BasicRequestContext, version: Int,
        _ service: StoreService
    ) async throws -> (HistoryQuery, HistoryPage) {
        let id = try transactionId(context)
        let account = try await service.account(ofAnyTransaction: id)
        let query = try HistoryQuery(request.uri.queryParameters, id: id, version: version, catalog: service.catalog)
        return (
            query,
            try await service.serverAPI.history(
                account: account, filter: query.filter, after: query.position, limit: HistoryQuery.pageSize)
        )
    }

    static func statuses(_ request: Request, _ context: BasicRequestContext, _ service: StoreService) async throws
        -> Response
    {
        let id = try transactionId(context)
        var wanted: Set<Int>?
        for text in request.uri.queryParameters[values: "status"] {
            guard let value = Int(text), SubscriptionStatusCode(rawValue: value) != nil else {
                throw AppStoreAPIError(.invalidStatus, "Invalid status: \(text.prefix(20)); use 1 to 5.")
            }
            wanted = (wanted ?? []).union([value])
        }
        let account = try await service.account(ofAnyTransaction: id)
        let statuses = try await service.serverAPI.subscriptionStatuses(account: account).filter {
            wanted?.contains($0.status.rawValue) ?? true
        }
        let now = service.clock.now()
        var groups: [String: [StatusResponse.LastTransaction]] = [:]
        var order: [String] = []
        for status in statuses {
            if groups[status.groupId] == nil { order.append(status.groupId) }
            groups[status.groupId, default: []].append(
                StatusResponse.LastTransaction(
                    status: status.status.rawValue, originalTransactionId: status.originalTransactionId,
                    signedTransactionInfo: service.signedAsRead(status.latest),
                    signedRenewalInfo: service.signedRenewalInfo(status, at: now)))
        }
        return JSONBody.response(
            StatusResponse(
                environment: service.store.environment, bundleId: service.catalog.bundleId,
                appAppleId: service.appAppleId,
                data: order.map {
                    StatusResponse.Group(subscriptionGroupIdentifier: $0, lastTransactions: groups[$0] ?? [])
                }))
    }

    /// Apple's transaction ids fit in 19 digits (a signed 64-bit number).
    static let longestTransactionId = 19

    /// A transaction id in the path: this store's rule for ids, within Apple's length (4000006 otherwise).
    static func transactionId(
        _ context: BasicRequestContext, _ name: String = "transactionId",
        invalid: AppStoreAPIError = .invalidTransactionId
    ) throws -> String {
        guard let id = try StoreRoutes.pathParameter(context, name), IdRules.transactionIdProblem(id) == nil,
            id.utf8.count <= longestTransactionId
        else { throw invalid }
        return id
    }
}

extension StoreService {
    /// The account of a transaction id, original transaction id or app transaction id (4040010 for none).
    func account(ofAnyTransaction id: String) async throws -> String {
        if let account = try await store.serverAPI.account(ofTransaction: id) { return account }
        let owner = catalog.accounts.first {
            SimulatedStore.appTransactionId(bundleId: catalog.bundleId, account: $0.name) == id
        }
        guard let owner else { throw AppStoreAPIError.transactionIdNotFound }
        return owner.name
    }

    /// A transaction's JWS as the App Store Server API returns it.
    func signed(_ transaction: ServerTransaction) -> String {
        signer.signed(transaction, catalog: catalog, environment: store.environment)
    }

    /// A transaction as an App Store Server API answer carries it: signed now, as Apple signs it.
    func signedAsRead(_ transaction: ServerTransaction) -> String {
        signer.signed(transaction, catalog: catalog, environment: store.environment, at: clock.now())
    }

    func signedRenewalInfo(_ status: SubscriptionStatus, at now: Date) -> String {
        signer.signedRenewalInfo(status, catalog: catalog, environment: store.environment, at: now)
    }
}

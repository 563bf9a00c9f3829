import AsyncHTTPClient
import Foundation
import StoreAPI
import StoreCore
import StoreKitModel

/// The `StoreBackend` over `storefront serve`'s HTTP API: the same StoreKit semantics, shared by
/// every client of the server. Payments carry an Idempotency-Key that every retry repeats, so a
/// lost answer never charges twice; updates arrive by long poll and resume from their cursor after
/// a disconnection, so none is missed or seen twice.
public final class RemoteStore: StoreBackend {
    public let baseURL: String
    public let catalog: Catalog
    /// The account whose updates `updates()` follows (a device signed in to one account); nil: every account.
    public let followedAccount: String?
    let transport: HTTPTransport
    /// Seconds one long poll waits on the server.
    let pollWait: Int

    /// `url` is the server's root (`http://127.0.0.1:8080`). `adminToken` is needed for the test
    /// controls and the transaction manager (`/admin`).
    public init(
        url: String, catalog: Catalog, adminToken: String? = nil, followedAccount: String? = nil,
        policy: RetryPolicy = .standard, pollWait: Int = 25, client: HTTPClient = RemoteStore.sharedClient
    ) {
        baseURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        self.catalog = catalog
        self.followedAccount = followedAccount
        self.pollWait = max(0, min(pollWait, API.maxWaitSeconds))
        transport = HTTPTransport(baseURL: baseURL, adminToken: adminToken, policy: policy, client: client)
    }

    /// One HTTP client for every remote store in the process. A connection that cannot be made
    /// fails at once (within 3 s) instead of being retried inside the client until the request's
    /// deadline, so the store's own backoff and budget decide, and "unreachable" is said in time.
    /// It lives as long as the process, so it is never shut down.
    public static let sharedClient: HTTPClient = {
        var configuration = HTTPClient.Configuration.singletonConfiguration
        configuration.connectionPool.retryConnectionEstablishment = false
        configuration.timeout.connect = .seconds(3)
        return HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }()

    // MARK: Requests

    func call<T: Decodable>(
        _ type: T.Type, _ method: HTTPTransport.Method, _ path: String, body: (some Encodable)? = Optional<Empty>.none,
        idempotencyKey: String? = nil, admin: Bool = false, extraTimeout: Duration = .zero, retry: Bool = true
    ) async throws -> T {
        let data = try body.map { try JSONEncoder().encode($0) }
        let reply = try await transport.send(
            method, path, body: data, idempotencyKey: idempotencyKey, admin: admin,
            extraTimeout: extraTimeout, retry: retry)
        guard (200..<300).contains(reply.status) else { throw failure(reply, admin: admin) }
        do {
            return try JSONDecoder().decode(T.self, from: reply.body)
        } catch {
            throw StoreFailure(
                "\(baseURL)\(path) answered something this client cannot read (\(error)); is it a storefront server of the same version?"
            )
        }
    }

    private func failure(_ reply: HTTPTransport.Reply, admin: Bool) -> StoreFailure {
        let detail = try? JSONDecoder().decode(ErrorBody.self, from: reply.body).error
        let message = detail?.message ?? "HTTP \(reply.status)"
        switch reply.status {
        case 401:
            return StoreFailure(
                "the server refused the admin token: \(message). Pass --admin-token (or set STOREFRONT_ADMIN_TOKEN) with the token storefront serve printed",
                kind: .invalid)
        case 404: return StoreFailure(message, kind: .notFound)
        case 409: return StoreFailure(message, kind: .conflict)
        case 400, 413, 415, 422: return StoreFailure(message, kind: .invalid)
        case 502, 503, 504: return StoreFailure("store unavailable at \(baseURL): \(message)", kind: .unavailable)
        default: return StoreFailure("the store at \(baseURL) failed: \(message)")
        }
    }

    static func segment(_ text: String) -> String {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/?#")
        return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
    }

    struct Empty: Codable, Sendable {}

    // MARK: StoreBackend

    public func products(ids: [String], storefront: String?) async throws -> ProductsResponse {
        let body = try await call(
            ProductsResponseBody.self, .POST, "/v1/products", body: ProductsRequest(ids: ids, storefront: storefront))
        if let failure = body.error {
            throw failure.storeError
                ?? StoreFailure("the products request failed with \(failure.domain) \(failure.code) \(failure.name)")
        }
        var products: [Product] = []
        var invalid = body.invalidProductIdentifiers
        for item in body.products {
            // The client's catalog is the server's (`/v1/catalog`); an id it lacks is reported, not invented.
            if let product = catalog.product(id: item.id) { products.append(product) } else { invalid.append(item.id) }
        }
        return ProductsResponse(
            storefront: body.storefront, products: products, invalidProductIdentifiers: invalid,
            unavailableInStorefront: body.unavailableInStorefront)
    }

    /// A forced outcome is a test control, so it goes through `/admin` first (the server's next
    /// outcome); unlike the embedded store, another client's payment could take it in between.
    public func add(_ payment: Payment, forcing outcome: PaymentOutcome?) async throws -> Transaction {
        if let outcome {
            var controls = try await controls()
            controls.nextOutcome = outcome
            try await setControls(controls)
        }
        return try await add(payment, idempotencyKey: UUID().uuidString)
    }

    /// `add` with a caller-chosen key: a caller that itself retries (after a restart) passes the same key.
    public func add(_ payment: Payment, idempotencyKey: String) async throws -> Transaction {
        try await call(
            TransactionResponse.self, .POST, "/v1/payments", body: PaymentRequest(payment),
            idempotencyKey: idempotencyKey
        )
        .transaction.transaction()
    }

    public func updates() async -> AsyncStream<TransactionUpdate> {
        let path = followedAccount.map { "/v1/accounts/\(Self.segment($0))/updates" } ?? "/v1/updates"
        // Where "from now on" starts, asked with the store's retry budget: a subscriber that starts
        // while the server restarts must learn it before it pays, or the poller would start "from
        // now" only after the server is back, past the updates of a payment made meanwhile, and
        // the buyer would wait for them forever (found by the chaos run). Past the budget the
        // poller asks again when the server is back.
        let start = try? await call(UpdatesResponse.self, .GET, path + "?wait=0").cursor
        let (stream, continuation) = AsyncStream.makeStream(of: TransactionUpdate.self, bufferingPolicy: .unbounded)
        let poller = Task { [transport, pollWait] in
            var cursor = start
            var failures = 0
            while !Task.isCancelled {
                do {
                    let query = cursor.map { "?after=\($0)&wait=\(pollWait)" } ?? "?wait=0"
                    let page = try await self.call(
                        UpdatesResponse.self, .GET, path + query, extraTimeout: .seconds(pollWait), retry: false)
                    failures = 0
                    let receipts = page.wireUpdates.receipts
                    for item in page.updates {
                        // An update this build cannot read is skipped, not retried forever.
                        if let update = try? item.update(receipts: receipts) { continuation.yield(update) }
                    }
                    cursor = page.cursor
                } catch is CancellationError {
                    break
                } catch {
                    failures += 1
                    do { try await Task.sleep(for: transport.policy.delay(afterFailures: failures)) } catch { break }
                }
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in poller.cancel() }
        return stream
    }

    public func unfinished(account: String) async throws -> [TransactionUpdate] {
        try await call(UnfinishedResponse.self, .GET, "/v1/accounts/\(Self.segment(account))/unfinished").wireUpdates
            .transactionUpdates()
    }

    public func finish(transactionId: String, account: String) async throws {
        _ = try await call(
            FinishResponse.self, .POST,
            "/v1/accounts/\(Self.segment(account))/transactions/\(Self.segment(transactionId))/finish")
    }

    public func restore(account: String) async throws -> [TransactionUpdate] {
        let response = try await call(
            RestoreResponse.self, .POST, "/v1/accounts/\(Self.segment(account))/restore",
            idempotencyKey: UUID().uuidString)
        if response.outcome == "failed" {
            guard let error = response.error?.storeError else {
                throw StoreFailure("restore failed with an error this client does not know")
            }
            throw error
        }
        return try response.wireUpdates.transactionUpdates()
    }

    public func transactions(account: String?) async throws -> [Transaction] {
        let response =
            if let account {
                try await call(TransactionsResponse.self, .GET, "/v1/accounts/\(Self.segment(account))/transactions")
            } else {
                try await call(TransactionsResponse.self, .GET, "/admin/transactions", admin: true)
            }
        return try response.transactions.map { try $0.transaction() }
    }

    public func families() async throws -> [String: String] {
        try await call(FamiliesResponse.self, .GET, "/admin/families", admin: true).families
    }

    public func appTransaction(account: String) async throws -> AppTransactionInfo {
        try await call(WireAppTransaction.self, .GET, "/v1/accounts/\(Self.segment(account))/app-transaction").info
    }

    public func cancellationMessage(account: String, productId: String, locale: String) async throws
        -> CancellationMessage?
    {
        try await call(
            CancellationMessageResponse.self, .GET,
            "/v1/accounts/\(Self.segment(account))/retention-message/\(Self.segment(productId))/\(Self.segment(locale))"
        ).message
    }

    public func entitlements(account: String) async throws -> [Entitlement] {
        try await call(WalletResponse.self, .GET, "/v1/accounts/\(Self.segment(account))/wallet").entitlements.map {
            try $0.entitlement()
        }
    }

    /// Taken once: the key makes a retry of a lost answer get the same messages, not none.
    public func takeMessages(account: String) async throws -> [AppStoreMessage] {
        try await call(
            MessagesResponse.self, .POST, "/v1/accounts/\(Self.segment(account))/messages/take",
            idempotencyKey: UUID().uuidString
        ).messages.compactMap(\.message)
    }

    /// Taken once, as `takeMessages`.
    public func takePurchaseIntents(account: String) async throws -> [PurchaseIntentInfo] {
        try await call(
            PurchaseIntentsResponse.self, .POST, "/v1/accounts/\(Self.segment(account))/purchase-intents/take",
            idempotencyKey: UUID().uuidString
        ).intents.map(\.intent)
    }

    /// The server's answer; when the server cannot be reached the app keeps the payment and retries
    /// later (`retryLater`), exactly as for an unreachable verification server.
    public func verify(receipt: String, transactionId: String, productId: String, claim: String) async throws
        -> VerificationResult
    {
        do {
            return try await call(
                VerifyResponse.self, .POST, "/v1/verify",
                body: VerifyRequest(receipt: receipt, transactionId: transactionId, productId: productId, claim: claim)
            )
            .verificationResult()
        } catch let failure as StoreFailure where failure.kind == .unavailable {
            return .retryLater(reason: failure.message)
        }
    }

    /// Returns only by throwing: the `StoreFailure` (`unavailable`) of the first check of the
    /// server's health that gets no good answer within the retry budget. The updates' long poll
    /// retries quietly for ever (a device waits for its store), so a caller that must give up in
    /// time, such as `buy` waiting for a payment's outcome, races its wait against this.
    public func untilUnreachable(checkingEvery interval: Duration = .seconds(1)) async throws {
        while true {
            try await Task.sleep(for: interval)
            _ = try await call(HealthResponse.self, .GET, "/v1/health")
        }
    }

    public func storeId() async throws -> String {
        try await call(HealthResponse.self, .GET, "/v1/health").storeId
    }

    public func controls() async throws -> TestControls {
        let wire = try await call(WireControls.self, .GET, "/v1/controls")
        do {
            return try wire.applied(to: TestControls(), catalog: catalog)
        } catch {
            throw StoreFailure("the server's test controls do not fit this catalog: \(error.field): \(error.message)")
        }
    }

    public func setControls(_ controls: TestControls) async throws {
        let wire = WireControls(controls, everyField: true)
        _ = try await call(WireControls.self, .PUT, "/admin/controls", body: wire, admin: true)
    }

    public func perform(_ action: ManageAction) async throws -> [TransactionUpdate] {
        switch action {
        case .createTransaction(let creation):
            // One key for every retry of this call: a creation the server made is not made twice.
            return try await call(
                ManageResponse.self, .POST, "/admin/transactions", body: CreateTransactionRequest(creation),
                idempotencyKey: UUID().uuidString, admin: true
            ).wireUpdates.transactionUpdates()
        case .sendMessage(let account, let reason):
            return try await call(
                ManageResponse.self, .POST, "/admin/accounts/\(Self.segment(account))/messages",
                body: MessageRequest(reason: reason), admin: true
            ).wireUpdates.transactionUpdates()
        case .purchaseIntent(let account, let productId, let offerId):
            return try await call(
                ManageResponse.self, .POST, "/admin/accounts/\(Self.segment(account))/purchase-intents",
                body: PurchaseIntentRequest(productId: productId, offerId: offerId), admin: true
            ).wireUpdates.transactionUpdates()
        default:
            break
        }
        let (method, path): (HTTPTransport.Method, String) =
            switch action {
            case .approveAskToBuy(let id): (.POST, "/admin/transactions/\(Self.segment(id))/approve")
            case .declineAskToBuy(let id): (.POST, "/admin/transactions/\(Self.segment(id))/decline")
            case .resolveIssue(let id): (.POST, "/admin/transactions/\(Self.segment(id))/resolve")
            case .refund(let id, let reason, let percentage):
                (
                    .POST,
                    "/admin/transactions/\(Self.segment(id))/refund?reason=\(RefundReason(reason).rawValue)"
                        + (percentage.map { "&percentage=\($0.text)" } ?? "")
                )
            case .requestRefund(let id, let reason):
                (.POST, "/admin/transactions/\(Self.segment(id))/request-refund?reason=\(reason.rawValue)")
            case .declineRefund(let id): (.POST, "/admin/transactions/\(Self.segment(id))/decline-refund")
            case .reverseRefund(let id): (.POST, "/admin/transactions/\(Self.segment(id))/reverse-refund")
            case .expireSubscription(let id): (.POST, "/admin/transactions/\(Self.segment(id))/expire")
            case .forceRenewal(let id): (.POST, "/admin/transactions/\(Self.segment(id))/renew")
            case .stopSharing(let id): (.POST, "/admin/transactions/\(Self.segment(id))/stop-sharing")
            case .serverFinish(let id): (.POST, "/admin/transactions/\(Self.segment(id))/server-finish")
            case .assign(let id, let account):
                (.POST, "/admin/transactions/\(Self.segment(id))/assign/\(Self.segment(account))")
            case .delete(let id): (.DELETE, "/admin/transactions/\(Self.segment(id))")
            case .clearAll: (.POST, "/admin/clear")
            case .clearAccount(let account): (.POST, "/admin/accounts/\(Self.segment(account))/clear")
            case .setFamily(let account, let family?):
                (.PUT, "/admin/accounts/\(Self.segment(account))/family/\(Self.segment(family))")
            case .setFamily(let account, nil): (.DELETE, "/admin/accounts/\(Self.segment(account))/family")
            case .resetToDefaults: (.POST, "/admin/reset")
            case .createTransaction: (.POST, "/admin/transactions")
            case .setAutoRenew(let id, let on):
                (.POST, "/admin/transactions/\(Self.segment(id))/auto-renew/\(on ? "on" : "off")")
            case .priceIncrease(let id, let step, _):
                (.POST, "/admin/transactions/\(Self.segment(id))/price-increase/\(step.rawValue)")
            case .sendMessage(let account, _): (.POST, "/admin/accounts/\(Self.segment(account))/messages")
            case .purchaseIntent(let account, _, _):
                (.POST, "/admin/accounts/\(Self.segment(account))/purchase-intents")
            }
        var terms: PriceIncreaseRequest?
        if case .priceIncrease(_, .request, let asked?) = action { terms = PriceIncreaseRequest(asked) }
        return try await call(ManageResponse.self, method, path, body: terms, admin: true).wireUpdates
            .transactionUpdates()
    }
}

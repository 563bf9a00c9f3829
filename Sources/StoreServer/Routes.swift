import Foundation
import Hummingbird
import JSONReading
import LocalState
import Logging
import ServiceLifecycle
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel

/// The HTTP API (documented route by route in docs/api.md; a test keeps the two equal).
public enum StoreRoutes {
    public static func router(_ service: StoreService) -> Router<BasicRequestContext> {
        let router = Router(context: BasicRequestContext.self)
        let allowed = AllowedMethods()
        // Order matters: the log line sees the status the error middleware chose.
        router.add(middleware: RequestLogMiddleware())
        router.add(middleware: ErrorMiddleware(allowed: allowed, storage: service.store.storageHealth))
        router.add(middleware: ServerAPIMiddleware(keys: service.apiKeys, clock: service.clock, allowed: allowed))
        addPublicRoutes(router, service)
        addAccountRoutes(router, service)
        RetentionRealtimeRoutes.addDeviceRoute(router, service)
        addVerifyRoutes(router, service)
        addAdminRoutes(router, service)
        ServerAPIRoutes.add(router, service)
        allowed.record(router.routes.map { (method: $0.method.rawValue, path: "\($0.path)") })
        return router
    }

    // MARK: Catalog, products, payments, finish

    static func addPublicRoutes(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        router.get("/v1/health") { _, context in
            // Within its own deadline, whatever the database does: a check that hangs would mark
            // every server of a shared database dead at once.
            let look = await service.healthProbe.look(at: service.store)
            if let detail = look.detail { context.logger.warning("health: degraded: \(detail)") }
            let health = HealthResponse(
                status: look.reason == nil ? "ok" : "degraded", environment: service.configuration.environment.name,
                bundleId: service.catalog.bundleId, cursor: look.cursor ?? 0, storeId: service.store.storeId(),
                reason: look.reason, database: service.store.storageKind)
            // Degraded is 503 so a load balancer or a client's retry takes it for "not now".
            var response = JSONBody.response(health, status: look.reason == nil ? .ok : .serviceUnavailable)
            if look.reason != nil { response.headers[.retryAfter] = "5" }
            return response
        }
        router.get("/v1/catalog") { _, _ in
            JSONBody.response(buffer: service.catalogBuffer, status: .ok)
        }
        router.post("/v1/products") { request, _ in
            let (body, _) = try await BodyReader.decode(ProductsRequest.self, from: request, limit: limit)
            guard body.ids.count <= 1000 else {
                throw APIError.invalid("ids has \(body.ids.count) identifiers; at most 1000 per request", field: "ids")
            }
            for (index, id) in body.ids.enumerated() {
                try IdRules.refuse(IdRules.productIdProblem(id), field: "ids[\(index)]")
            }
            if let storefront = body.storefront, service.catalog.storefront(id: storefront.uppercased()) == nil {
                throw APIError.invalid(
                    "\(storefront) is not a storefront of this catalog (it has \(service.catalog.storefronts.map(\.id).joined(separator: ", ")))",
                    field: "storefront")
            }
            do {
                let response = try await service.store.products(
                    ids: body.ids, storefront: body.storefront?.uppercased())
                return JSONBody.response(ProductsResponseBody(response))
            } catch let error as StoreError {
                let storefront =
                    service.catalog.storefront(id: body.storefront?.uppercased() ?? service.catalog.defaultStorefront)
                    ?? service.catalog.storefronts[0]
                return JSONBody.response(ProductsResponseBody(failed: error, storefront: storefront))
            }
        }
        router.post("/v1/payments") { request, _ in
            let (body, _) = try await BodyReader.decode(PaymentRequest.self, from: request, limit: limit)
            let payment = try validatedPayment(body, service)
            return try await service.idempotentPayment(request, payment: payment)
        }
        router.post("/v1/accounts/{account}/transactions/{transactionId}/finish") { request, context in
            let account = try service.account(pathParameter(context, "account"))
            let id = try transactionId(context)
            try await checkFinishBody(request, transactionId: id, limit: limit)
            try await service.store.finish(transactionId: id, account: account.name)
            return JSONBody.response(FinishResponse(transactionId: id, finished: true))
        }
        router.get("/v1/controls") { _, _ in
            JSONBody.response(WireControls(try await service.store.controls()))
        }
        router.get("/.well-known/storefront-jws-key.pem") { _, _ in
            let pem = Data(service.signer.publicKeyPEM.utf8)
            return Response(
                status: .ok, headers: [.contentType: "application/x-pem-file", .contentLength: String(pem.count)],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: pem)))
        }
        router.get("/.well-known/jwks.json") { _, _ in
            JSONBody.response(service.signer.jwks)
        }
        // The root of the JWS chain, for Apple's SignedDataVerifier(root_certificates=[…]).
        router.get("/.well-known/storefront-root-ca.cer") { _, _ in
            let der = service.signer.chain.root
            return Response(
                status: .ok, headers: [.contentType: "application/pkix-cert", .contentLength: String(der.count)],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: der)))
        }
        router.get("/.well-known/storefront-root-ca.pem") { _, _ in
            let pem = Data(service.signer.chain.rootPEM.utf8)
            return Response(
                status: .ok, headers: [.contentType: "application/x-pem-file", .contentLength: String(pem.count)],
                body: ResponseBody(byteBuffer: ByteBuffer(bytes: pem)))
        }
    }

    static func validatedPayment(_ body: PaymentRequest, _ service: StoreService) throws -> Payment {
        let quantity = body.quantity ?? 1
        guard Payment.quantityRange.contains(quantity) else {
            throw APIError.invalid("quantity \(quantity) is out of range; StoreKit allows 1 to 10", field: "quantity")
        }
        try IdRules.refuse(IdRules.accountNameProblem(body.account), field: "account")
        guard service.catalog.account(named: body.account) != nil else {
            throw APIError.invalid(
                "\(body.account) is not an account of this catalog (it has \(service.catalog.accounts.map(\.name).joined(separator: ", ")))",
                field: "account")
        }
        try IdRules.refuse(IdRules.productIdProblem(body.productId), field: "productId")
        // Lengths in Unicode code points, as JSON Schema's maxLength (docs/openapi.json) counts them.
        if let order = body.applicationUsername, order.unicodeScalars.count > 255 {
            throw APIError.invalid("applicationUsername must be at most 255 characters", field: "applicationUsername")
        }
        try checkOfferFields(body)
        // An unknown product or offer is not refused here: StoreKit answers it with a failed
        // transaction (paymentInvalid, or the offer's SKError), and so is a plan the product does
        // not offer in the account's storefront (storeProductNotAvailable).
        return Payment(
            productId: body.productId, quantity: quantity, applicationUsername: body.applicationUsername,
            account: body.account,
            offer: body.offer, billingPlan: try billingPlan(body.billingPlan),
            introductoryOfferEligibility: body.introductoryOfferEligibility)
    }

    /// One offer at most, and no field longer than a signature or a code can be. What the
    /// fields say is the store's to check: a wrong offer fails the payment with its SKError.
    static func checkOfferFields(_ body: PaymentRequest) throws {
        let offers = [
            body.discount != nil, body.offerCode != nil, body.winBackOffer != nil,
            body.promotionalOfferCompactJWS != nil,
        ].filter { $0 }.count
        guard offers <= 1 else {
            throw APIError.invalid(
                "a payment takes one offer: discount, offerCode, winBackOffer or promotionalOfferCompactJWS",
                field: "discount")
        }
        for (field, text, limit) in [
            ("offerCode", body.offerCode, 512), ("winBackOffer", body.winBackOffer, 512),
            ("discount.identifier", body.discount?.identifier, 512),
            ("discount.keyIdentifier", body.discount?.keyIdentifier, 512),
            ("discount.nonce", body.discount?.nonce, 512),
            ("discount.signature", body.discount?.signature, 512),
            ("promotionalOfferCompactJWS", body.promotionalOfferCompactJWS, Self.compactJWSLimit),
            (
                "introductoryOfferEligibilityCompactJWS", body.introductoryOfferEligibilityCompactJWS,
                Self.compactJWSLimit
            ),
        ] {
            if let text, text.unicodeScalars.count > limit {
                throw APIError.invalid("\(field) must be at most \(limit) characters", field: field)
            }
        }
    }

    /// Apple's signers make a JWS of about 500 characters; this leaves room for long ids.
    static let compactJWSLimit = 4096

    /// The plan a payment asks for; nil pays up front. A name StoreKit has no plan for is refused,
    /// never read as up front: the customer would be charged for a plan they did not choose.
    static func billingPlan(_ name: String?) throws -> BillingPlanType? {
        guard let name else { return nil }
        guard let plan = BillingPlanType(rawValue: name) else {
            let known = BillingPlanType.allCases.map(\.rawValue).joined(separator: " or ")
            throw APIError.invalid(
                "billingPlan \(quoted(name)) is not a billing plan; expected \(known) (or leave it out to pay up front)",
                field: "billingPlan")
        }
        return plan
    }

    /// No body is needed; one that is sent must agree with the path, which names the transaction.
    static func checkFinishBody(_ request: Request, transactionId id: String, limit: Int) async throws {
        let data = try await BodyReader.bytes(request, limit: limit)
        guard !data.isEmpty else { return }
        try BodyReader.requireJSON(request)
        let body = try BodyReader.decode(FinishRequest.self, from: data)
        if let named = body.transactionId, named != id {
            throw APIError.conflict(
                "the body names transaction \(String(named.prefix(64)).debugDescription) but the path names \(id); "
                    + "send the transaction to finish in the path, and the same id or none in the body")
        }
        guard body.finished != false else {
            throw APIError.invalid(
                "finished: false cannot be asked for; a finished transaction stays finished (send true or leave it out)",
                field: "finished")
        }
    }

    static func transactionId(_ context: BasicRequestContext) throws -> String {
        guard let id = try pathParameter(context, "transactionId") else {
            throw APIError.badRequest(
                "the transactionId in the path is not valid percent-encoding", field: "transactionId")
        }
        try IdRules.refuse(IdRules.transactionIdProblem(id), field: "transactionId", inPath: true)
        return id
    }

    /// A path parameter, percent-decoded: Hummingbird hands them over as sent, so `Jos%C3%A9` would
    /// never match the account José. Nil when missing or not valid percent-encoding; 400 when it
    /// decodes to a control character (`%00`).
    static func pathParameter(_ context: BasicRequestContext, _ name: String) throws -> String? {
        guard let text = context.parameters.get(name).flatMap({ $0.removingPercentEncoding }) else { return nil }
        try NetworkText.refuseControls(text, field: name, place: "the \(name) in the path")
        return text
    }

    // MARK: Accounts: updates, unfinished, transactions, wallet, restore

    static func addAccountRoutes(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        router.get("/v1/updates") { request, _ in
            try await longPoll(request, account: nil, service)
        }
        router.get("/v1/accounts/{account}/updates") { request, context in
            let account = try service.account(pathParameter(context, "account"))
            return try await longPoll(request, account: account.name, service)
        }
        router.get("/v1/accounts/{account}/unfinished") { _, context in
            let account = try service.account(pathParameter(context, "account"))
            let updates = try await service.store.unfinished(account: account.name)
            return JSONBody.response(UnfinishedResponse(updates: try await service.wire(updates)))
        }
        router.get("/v1/accounts/{account}/transactions") { _, context in
            let account = try service.account(pathParameter(context, "account"))
            let transactions = try await service.store.transactions(account: account.name)
            return JSONBody.response(TransactionsResponse(transactions: try await service.wire(transactions)))
        }
        router.get("/v1/accounts/{account}/wallet") { _, context in
            let account = try service.account(pathParameter(context, "account"))
            let now = service.clock.now()
            let entitlements = try await service.store.entitlements(account: account.name)
            return JSONBody.response(
                WalletResponse(account: account.name, entitlements: entitlements.map { .init($0, now: now) }))
        }
        router.get("/v1/accounts/{account}/app-transaction") { _, context in
            let account = try service.account(pathParameter(context, "account"))
            let info = try await service.store.appTransaction(account: account.name)
            let signed = service.signer.signedAppTransaction(
                info, appAppleId: service.appAppleId, at: service.clock.now())
            return JSONBody.response(WireAppTransaction(info, signed: signed))
        }
        router.get("/v1/accounts/{account}/subscription-statuses") { _, context in
            let account = try service.account(pathParameter(context, "account"))
            let now = service.clock.now()
            let statuses = try await service.serverAPI.subscriptionStatuses(account: account.name).map {
                service.signer.signedStatus(
                    $0, catalog: service.catalog, environment: service.store.environment, at: now)
            }
            return JSONBody.response(SubscriptionStatusesResponse(statuses))
        }
        // Taking is a write (each is given once), so a retry with the same Idempotency-Key is
        // answered as the first try was, and what a lost answer carried is not lost with it.
        router.post("/v1/accounts/{account}/messages/take") { request, context in
            let account = try service.account(pathParameter(context, "account"))
            let data = try await BodyReader.bytes(request, limit: service.configuration.bodyLimit)
            return try await service.idempotent(request, body: data) {
                let messages = try await service.store.takeMessages(account: account.name)
                return (.ok, JSONBody.data(MessagesResponse(messages)))
            }
        }
        router.post("/v1/accounts/{account}/purchase-intents/take") { request, context in
            let account = try service.account(pathParameter(context, "account"))
            let data = try await BodyReader.bytes(request, limit: service.configuration.bodyLimit)
            return try await service.idempotent(request, body: data) {
                let intents = try await service.store.takePurchaseIntents(account: account.name)
                return (.ok, JSONBody.data(PurchaseIntentsResponse(intents)))
            }
        }
        router.post("/v1/accounts/{account}/restore") { request, context in
            let account = try service.account(pathParameter(context, "account"))
            let data = try await BodyReader.bytes(request, limit: service.configuration.bodyLimit)
            return try await service.idempotent(request, body: data) {
                let response: RestoreResponse
                do {
                    let restored = try await service.store.restore(account: account.name)
                    response = RestoreResponse(
                        outcome: restored.isEmpty ? "nothing" : "restored", updates: try await service.wire(restored),
                        error: nil)
                } catch let error as StoreError {
                    response = RestoreResponse(outcome: "failed", updates: .none, error: WireStoreError(error))
                }
                return (.ok, JSONBody.data(response))
            }
        }
    }

    /// Updates after `after` (or from now when absent), waiting up to `wait` seconds for the
    /// first one. The journal is read after subscribing to the store's updates and to the commits
    /// other servers announce (PostgreSQL), so nothing slips between the read and the wait; a
    /// commit of another process that is not announced is seen within a second.
    static func longPoll(_ request: Request, account: String?, _ service: StoreService) async throws -> Response {
        let query = request.uri.queryParameters
        let wait = try integer(query["wait"].map(String.init), name: "wait", range: 0...Int64(API.maxWaitSeconds)) ?? 0
        let limit = try integer(query["limit"].map(String.init), name: "limit", range: 1...1000) ?? 100
        let cursor: Int64
        if let after = try integer(query["after"].map(String.init), name: "after", range: 0...Int64.max) {
            cursor = after
        } else {
            cursor = try await service.store.journalCursor()
        }
        let clock = service.clock
        let deadline = clock.now().addingTimeInterval(TimeInterval(wait))
        while true {
            let signals = await service.store.updates()
            let elsewhere = service.store.commitsElsewhere()
            let entries = try await service.store.journal(account: account, after: cursor, limit: Int(limit))
            if !entries.isEmpty {
                let updates = try await service.wire(entries.map(\.update), cursors: entries.map(\.cursor))
                return JSONBody.response(UpdatesResponse(updates: updates, cursor: entries.last?.cursor ?? cursor))
            }
            let now = clock.now()
            if now >= deadline || Task.isCancelled || Task.isShuttingDownGracefully {
                return JSONBody.response(UpdatesResponse(updates: .none, cursor: cursor))
            }
            await firstOf(signals, elsewhere, until: min(deadline, now.addingTimeInterval(1)), on: clock)
        }
    }

    /// Returns at the first element of `signals` or of `elsewhere`, when `clock` reaches
    /// `deadline`, or at a graceful shutdown.
    static func firstOf(
        _ signals: AsyncStream<TransactionUpdate>, _ elsewhere: AsyncStream<Void>?, until deadline: Date,
        on clock: any StoreClock
    ) async {
        let (shutdown, shutdownContinuation) = AsyncStream.makeStream(of: Void.self)
        await withGracefulShutdownHandler {
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await _ in signals { return }
                }
                if let elsewhere {
                    group.addTask {
                        for await _ in elsewhere { return }
                    }
                }
                group.addTask {
                    try? await clock.sleep(until: deadline)
                }
                group.addTask {
                    for await _ in shutdown { return }
                }
                await group.next()
                group.cancelAll()
            }
        } onGracefulShutdown: {
            shutdownContinuation.finish()
        }
        shutdownContinuation.finish()
    }

    static func integer(_ text: String?, name: String, range: ClosedRange<Int64>) throws -> Int64? {
        guard let text else { return nil }
        guard let value = Int64(text), range.contains(value) else {
            throw APIError.badRequest(
                "\(name)=\(text.prefix(40)) is not an integer from \(range.lowerBound) to \(range.upperBound)",
                field: name)
        }
        return value
    }

    // MARK: verifyReceipt and the app server's check

    static func addVerifyRoutes(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.receiptBodyLimit
        router.post("/verifyReceipt") { request, _ in
            let body = try await BodyReader.bytes(request, limit: limit)
            return JSONBody.response(
                try await service.verifier.answer(method: true, body: body, now: service.clock.now()))
        }
        router.get("/verifyReceipt") { _, _ in
            JSONBody.response(try await service.verifier.answer(method: false, body: nil, now: service.clock.now()))
        }
        router.post("/v1/verify") { request, _ in
            let (body, _) = try await BodyReader.decode(VerifyRequest.self, from: request, limit: limit)
            guard !body.claim.isEmpty, body.claim.unicodeScalars.count <= 255 else {
                throw APIError.invalid("claim must be 1 to 255 characters", field: "claim")
            }
            try IdRules.refuse(IdRules.transactionIdProblem(body.transactionId), field: "transactionId")
            try IdRules.refuse(IdRules.productIdProblem(body.productId), field: "productId")
            let result = try await service.store.verify(
                receipt: body.receipt, transactionId: body.transactionId,
                productId: body.productId, claim: body.claim)
            return JSONBody.response(VerifyResponse(result))
        }
    }

    // MARK: Admin: test controls and the transaction manager

    static func addAdminRoutes(_ router: Router<BasicRequestContext>, _ service: StoreService) {
        let admin = router.group("/admin").add(middleware: AdminAuthMiddleware(token: service.configuration.adminToken))
        let limit = service.configuration.bodyLimit
        admin.get("/transactions") { _, _ in
            let transactions = try await service.store.transactions(account: nil)
            return JSONBody.response(TransactionsResponse(transactions: try await service.wire(transactions)))
        }
        admin.get("/families") { _, _ in
            JSONBody.response(FamiliesResponse(families: try await service.store.families()))
        }
        admin.put("/controls") { request, _ in
            let (body, _) = try await BodyReader.decode(WireControls.self, from: request, limit: limit)
            let current = try await service.store.controls()
            let controls: TestControls
            do {
                controls = try body.applied(to: current, catalog: service.catalog)
            } catch let problem as ControlProblem {
                throw APIError.invalid(problem.valueAndMessage, field: problem.field)
            }
            try await service.store.setControls(controls)
            return JSONBody.response(WireControls(controls))
        }
        let actions: [(String, @Sendable (String) -> ManageAction)] =
            [
                ("approve", ManageAction.approveAskToBuy), ("decline", ManageAction.declineAskToBuy),
                ("resolve", ManageAction.resolveIssue),
                ("expire", ManageAction.expireSubscription),
                ("renew", ManageAction.forceRenewal),
                ("decline-refund", ManageAction.declineRefund), ("reverse-refund", ManageAction.reverseRefund),
                ("stop-sharing", ManageAction.stopSharing), ("server-finish", ManageAction.serverFinish),
                ("auto-renew/on", { .setAutoRenew($0, true) }), ("auto-renew/off", { .setAutoRenew($0, false) }),
            ]
            + [PriceIncreaseStep.consent, .decline].map { step in
                ("price-increase/\(step.rawValue)", { .priceIncrease($0, step) })
            }
        for (name, action) in actions {
            admin.post(RouterPath("/transactions/{transactionId}/\(name)")) { _, context in
                try await manage(action(try transactionId(context)), service)
            }
        }
        admin.post("/transactions/{transactionId}/price-increase/request") { request, context in
            let id = try transactionId(context)
            return try await manage(
                .priceIncrease(id, .request, try await priceIncreaseTerms(request, limit: limit)), service)
        }
        admin.post("/transactions/{transactionId}/refund") { request, context in
            let reason = try refundReason(request.uri.queryParameters["reason"].map(String.init))
            let percentage = try refundPercentage(request.uri.queryParameters["percentage"].map(String.init))
            return try await manage(
                .refund(try transactionId(context), reason: reason.revocationReason, percentage: percentage), service)
        }
        admin.post("/transactions/{transactionId}/request-refund") { request, context in
            let reason = try refundRequestReason(request.uri.queryParameters["reason"].map(String.init))
            return try await manage(.requestRefund(try transactionId(context), reason: reason), service)
        }
        admin.delete("/transactions/{transactionId}") { _, context in
            try await manage(.delete(try transactionId(context)), service)
        }
        addServerAPIAdmin(admin, service)
        NotificationRoutes.add(admin: admin, service)
        RetentionRoutes.add(admin: admin, service)
        AccountAdminRoutes.add(admin: admin, service)
        CreateTransactionRoute.add(admin: admin, service)
        admin.post("/clear") { _, _ in
            try await manage(.clearAll, service)
        }
        admin.post("/reset") { _, _ in
            try await manage(.resetToDefaults, service)
        }
    }

    /// What the App Store Server API needs from `/admin`: its keys, and what servers sent it.
    static func addServerAPIAdmin(_ admin: RouterGroup<BasicRequestContext>, _ service: StoreService) {
        let limit = service.configuration.bodyLimit
        admin.get("/api-keys") { _, _ in
            JSONBody.response(
                APIKeysResponse(
                    keys: service.apiKeys.all.map {
                        .init(issuerId: $0.issuerId, keyId: $0.keyId, publicKey: $0.publicKeyPEM)
                    }))
        }
        admin.post("/api-keys") { request, _ in
            let (body, _) = try await BodyReader.decode(APIKeyRequest.self, from: request, limit: limit)
            let key: APIKey
            do {
                key = try APIKey(issuerId: body.issuerId, keyId: body.keyId, pem: body.key)
            } catch let problem as APIKeyProblem {
                throw APIError.invalid(problem.message, field: "key")
            }
            try await service.register(key)
            return JSONBody.response(
                APIKeysResponse.Key(issuerId: key.issuerId, keyId: key.keyId, publicKey: key.publicKeyPEM),
                status: .created)
        }
        admin.delete("/api-keys/{keyId}") { _, context in
            let keyId = context.parameters.get("keyId") ?? ""
            guard try await service.revoke(keyId: keyId) else {
                throw APIError.notFound("no API key \(String(keyId.prefix(64)).debugDescription) is registered")
            }
            return Response(status: .noContent)
        }
        admin.get("/consumption") { _, _ in
            let reports = try await service.serverAPI.consumptionReports()
            return JSONBody.response(
                ConsumptionReportsResponse(
                    reports: reports.map {
                        .init(
                            transactionId: $0.transactionId, receivedDate: $0.receivedAt.epochMilliseconds,
                            request: $0.body)
                    }))
        }
    }

    /// A price increase's optional body: none asks for a tenth more, with consent.
    static func priceIncreaseTerms(_ request: Request, limit: Int) async throws -> PriceIncreaseTerms? {
        let data = try await BodyReader.bytes(request, limit: limit)
        guard !data.isEmpty else { return nil }
        try BodyReader.requireJSON(request)
        let body = try BodyReader.decode(PriceIncreaseRequest.self, from: data)
        guard let terms = body.terms else {
            throw APIError.invalid(
                "price \(String((body.price ?? "").prefix(32)).debugDescription) is not a positive decimal such as \"5.99\"",
                field: "price")
        }
        return terms
    }

    /// `?reason=`: `other` (the default) or `app-issue`, as `storefront manage refund --reason` takes it.
    static func refundReason(_ text: String?) throws -> RefundReason {
        guard let text else { return .other }
        guard let reason = RefundReason(rawValue: text) else {
            throw APIError.badRequest(
                "reason=\(text.prefix(40)) is not a refund reason (expected \(RefundReason.inWords))", field: "reason")
        }
        return reason
    }

    /// `?percentage=` of a prorated refund: the share given back (nil: a full refund), as
    /// `storefront manage refund --percentage` takes it.
    static func refundPercentage(_ text: String?) throws -> RefundPercentage? {
        guard let text else { return nil }
        guard let percentage = RefundPercentage(text: text) else {
            throw APIError.badRequest(
                "percentage=\(text.prefix(40)) is not a refund's share (expected \(RefundPercentage.inWords))",
                field: "percentage")
        }
        return percentage
    }

    /// `?reason=` of a refund request: the customer's reason (`other` when absent), in this
    /// store's spelling or Apple's.
    static func refundRequestReason(_ text: String?) throws -> RefundRequestReason {
        guard let text else { return .other }
        guard let reason = RefundRequestReason(name: text) else {
            throw APIError.badRequest(
                "reason=\(text.prefix(40)) is not a refund request reason (expected \(RefundRequestReason.inWords))",
                field: "reason")
        }
        return reason
    }

    static func manage(_ action: ManageAction, _ service: StoreService) async throws -> Response {
        let updates = try await service.store.perform(action)
        return JSONBody.response(ManageResponse(updates: try await service.wire(updates)))
    }
}

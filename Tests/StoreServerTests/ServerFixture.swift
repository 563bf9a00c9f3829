import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import Logging
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel
import StoreServer
import TestSupport
import Testing

/// A server over products.json in a fresh state directory, exercised through Hummingbird's
/// router test client (no socket).
struct ServerFixture {
    static let token = "test-admin-token-0123456789"
    static let gems = "com.example.storefront.gems.100"
    static let removeAds = "com.example.storefront.removeads"
    static let monthly = "com.example.storefront.premium.monthly"

    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func catalogBytes() throws -> Data {
        try Data(contentsOf: repositoryRoot.appendingPathComponent("products.json"))
    }

    let service: StoreService
    let directory: URL
    /// The server's and the store's clock. It starts at the real time, so the tokens and
    /// certificates a test makes with today's date are current, and moves only when a test
    /// moves it.
    let clock: ManualClock
    /// The server's own tasks that wait a second at a time on the clock: `MaintenanceService`.
    /// (`NotificationDeliverer` does too while it has a URL to send to; with none it waits for
    /// a notification's signal or its next look for lingering URLs, a minute on.)
    static let backgroundSleepers = 1

    static func configuration(
        environment: ServerEnvironment = .sandbox, sharedSecret: String? = nil,
        idempotencyLifetime: TimeInterval = 24 * 3600
    ) -> ServerConfiguration {
        ServerConfiguration(
            port: 0, environment: environment, adminToken: token, sharedSecret: sharedSecret,
            bodyLimit: 64 * 1024, receiptBodyLimit: 5 * 1024 * 1024, idempotencyLifetime: idempotencyLifetime)
    }

    init(
        directory: URL? = nil, environment: ServerEnvironment = .sandbox, sharedSecret: String? = nil,
        catalogBytes: Data? = nil, idempotencyLifetime: TimeInterval = 24 * 3600
    ) async throws {
        try await self.init(
            directory: directory, catalogBytes: catalogBytes,
            configuration: Self.configuration(
                environment: environment, sharedSecret: sharedSecret, idempotencyLifetime: idempotencyLifetime))
    }

    /// `start`: when the server starts, on its clock (now by default).
    init(directory: URL? = nil, catalogBytes: Data? = nil, configuration: ServerConfiguration, start: Date = Date())
        async throws
    {
        let bytes = try catalogBytes ?? Self.catalogBytes()
        let catalog = try CatalogLoader.decode(Array(bytes), source: "products.json")
        self.directory = directory ?? scratchDirectory("server")
        clock = ManualClock(start)
        service = try await StoreService.open(
            catalog: catalog, catalogBytes: bytes, database: StoreFixture.database(in: self.directory),
            configuration: configuration, clock: clock)
    }

    var application: some ApplicationProtocol {
        var logger = Logger(label: "storefront.test")
        logger.logLevel = .warning
        return StoreHTTPServer.application(service, logger: logger)
    }

    func test<Value: Sendable>(_ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await application.test(.router, body)
    }

    /// Returns once a long poll waits for updates along with the server's own timers, all until a
    /// second from now on the clock, which has not moved since.
    func longPollWaiting() async {
        await clock.sleeping(until: clock.now().addingTimeInterval(1), count: Self.backgroundSleepers + 1)
    }

    /// A purchase through the store itself, waiting for the update that ends `purchasing`.
    func buy(
        _ productId: String, quantity: Int = 1, account: String = "alice", order: String? = nil,
        offer: PaymentOffer? = nil, plan: BillingPlanType? = nil
    ) async throws -> TransactionUpdate {
        let updates = await service.store.updates()
        let started = try await service.store.add(
            Payment(
                productId: productId, quantity: quantity, applicationUsername: order, account: account, offer: offer,
                billingPlan: plan))
        for await update in updates where update.transaction.id == started.id && update.transaction.state != .purchasing
        {
            return update
        }
        throw StoreFailure("the update stream ended")
    }
}

/// JSON helpers over the test client.
extension TestClientProtocol {
    @discardableResult
    func send(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, contentType: String? = "application/json",
        headers extra: [String: String] = [:], admin: Bool = false
    ) async throws -> TestResponse {
        var headers = HTTPFields()
        if json != nil, let contentType { headers[.contentType] = contentType }
        if admin { headers[.authorization] = "Bearer \(ServerFixture.token)" }
        for (name, value) in extra {
            if let field = HTTPField.Name(name) { headers[field] = value }
        }
        return try await execute(uri: uri, method: method, headers: headers, body: json.map { ByteBuffer(string: $0) })
    }

    func object(
        _ method: HTTPRequest.Method, _ uri: String, json: String? = nil, headers: [String: String] = [:],
        admin: Bool = false, expect status: HTTPResponse.Status = .ok,
        sourceLocation: Testing.SourceLocation = #_sourceLocation
    ) async throws -> [String: Any] {
        let response = try await send(method, uri, json: json, headers: headers, admin: admin)
        #expect(
            response.status == status, "\(method) \(uri): \(String(buffer: response.body))",
            sourceLocation: sourceLocation)
        return try #require(
            try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any],
            sourceLocation: sourceLocation)
    }

    func pay(_ productId: String, account: String = "alice", key: String = UUID().uuidString, quantity: Int = 1)
        async throws -> TestResponse
    {
        try await send(
            .post, "/v1/payments",
            json: #"{"account":"\#(account)","productId":"\#(productId)","quantity":\#(quantity)}"#,
            headers: ["Idempotency-Key": key])
    }

    /// Long-polls the account's updates after `cursor` until one of `id` leaves `purchasing` (or
    /// `until` holds); with the receipts of the page it came in (by account).
    func awaitUpdate(
        account: String, after cursor: Int64, transactionId: String,
        until done: (String) -> Bool = { $0 != "purchasing" }
    ) async throws -> (update: [String: Any], cursor: Int64, receipts: [String: Any]) {
        var cursor = cursor
        for _ in 0..<20 {
            let page = try await object(.get, "/v1/accounts/\(account)/updates?after=\(cursor)&wait=5")
            for update in page["updates"] as? [[String: Any]] ?? [] {
                let transaction = update["transaction"] as? [String: Any] ?? [:]
                if transaction["transactionId"] as? String == transactionId, done(transaction["state"] as? String ?? "")
                {
                    return (
                        update, (update["cursor"] as? NSNumber)?.int64Value ?? cursor,
                        page["receipts"] as? [String: Any] ?? [:]
                    )
                }
            }
            cursor = (page["cursor"] as? NSNumber)?.int64Value ?? cursor
        }
        throw StoreFailure("no update for \(transactionId)")
    }
}

extension Data {
    init(buffer: ByteBuffer) {
        self.init(buffer.readableBytesView)
    }
}

func json(_ response: TestResponse) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
}

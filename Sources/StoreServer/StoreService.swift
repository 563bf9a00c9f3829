import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import LocalState
import Logging
import SQLiteStore
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSigning

/// How `storefront serve` was started.
public struct ServerConfiguration: Sendable {
    public var host: String
    public var port: Int
    public var environment: ServerEnvironment
    public var adminToken: String
    /// verifyReceipt's `password`; nil: not checked.
    public var sharedSecret: String?
    /// Largest body of the JSON API routes.
    public var bodyLimit: Int
    /// Largest body of the routes that carry a receipt (`/verifyReceipt`, `/v1/verify`).
    public var receiptBodyLimit: Int
    /// How long an idempotency key and its stored response are kept.
    public var idempotencyLifetime: TimeInterval
    /// Keys that may call the App Store Server API (`--api-key`), besides those `/admin` registered.
    public var apiKeys: [APIKey] = []
    /// Where server notifications go (`--notify`), besides the URLs `/admin` set.
    public var notifyURLs: [String] = []
    /// How long one delivery attempt may take before it counts as timed out.
    public var notificationTimeout: Duration = .seconds(5)
    /// Deliveries in flight at once to one URL (`--notify-concurrency`): a receiver that hangs
    /// holds at most these, each for at most `notificationTimeout`, and never another URL's.
    public var notificationConcurrencyPerURL = 4

    public init(
        host: String = "127.0.0.1", port: Int = 8080, environment: ServerEnvironment = .sandbox, adminToken: String,
        sharedSecret: String? = nil, bodyLimit: Int = 64 * 1024, receiptBodyLimit: Int = 5 * 1024 * 1024,
        idempotencyLifetime: TimeInterval = 24 * 3600
    ) {
        self.host = host
        self.port = port
        self.environment = environment
        self.adminToken = adminToken
        self.sharedSecret = sharedSecret
        self.bodyLimit = bodyLimit
        self.receiptBodyLimit = receiptBodyLimit
        self.idempotencyLifetime = idempotencyLifetime
    }

    /// A 256-bit random token, base64url: what the server prints when `--admin-token` is not given.
    public static func generateToken() -> String {
        Base64URL.encode(SymmetricKey(size: .bits256).withUnsafeBytes { Data($0) })
    }

    /// True for 127.0.0.0/8, ::1 and localhost: the only addresses bound without a warning.
    /// Addresses are parsed, not matched by prefix: `127.example.com` is a name that can resolve
    /// anywhere, and `::0:1` is `::1`.
    public static func isLoopback(_ host: String) -> Bool {
        let lower = host.lowercased()
        if lower == "localhost" { return true }
        let bare = lower.hasPrefix("[") && lower.hasSuffix("]") ? String(lower.dropFirst().dropLast()) : lower
        var v4 = in_addr()
        if inet_pton(AF_INET, bare, &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, bare, &v6) == 1 {
            return withUnsafeBytes(of: &v6) { Array($0) } == Array(repeating: 0, count: 15) + [1]
        }
        return false
    }
}

extension StoreFailure {
    /// The same failure in the server's words. LocalState's advice names the state directory's
    /// option as the other commands spell it, `--state DIR`; the server's is `--db DIR`.
    var namingServerOptions: StoreFailure {
        StoreFailure(
            message.replacingOccurrences(of: "--state", with: "--db"), kind: kind, outcomeUnknown: outcomeUnknown,
            shareable: shareable)
    }
}

/// Everything the routes share: the store's parts each route uses, the signer and the settings.
public struct StoreService: Sendable {
    /// The app-facing store: payments, the update journal, receipts, test controls.
    public let store: SimulatedStore
    public let serverAPI: AppStoreServerAPI
    public let massExtensions: MassExtensions
    public let retention: RetentionMessaging
    public let notifications: ServerNotifications
    let idempotencyKeys: IdempotencyKeys
    public let signer: TransactionSigner
    public let configuration: ServerConfiguration
    /// The catalog file as loaded, served at `/v1/catalog` so clients use the same one: the one
    /// buffer every answer shares, referred to rather than copied, so a hundred clients reading a
    /// 16 MB catalog slowly hold one copy.
    let catalogBuffer: ByteBuffer
    /// Who may call the App Store Server API.
    public let apiKeys: APIKeyRing
    /// The settings as `refreshSettings` last applied them.
    let appliedSettings = AppliedSettings()
    /// `/v1/health`'s look at the database, shared by the checks that arrive together.
    let healthProbe = HealthProbe()

    public init(store: SimulatedStore, configuration: ServerConfiguration, catalogBytes: Data) async throws {
        self.store = store
        serverAPI = store.serverAPI
        massExtensions = store.massExtensions
        retention = store.retention
        notifications = store.notifications
        idempotencyKeys = store.idempotencyKeys
        self.configuration = configuration
        catalogBuffer = ByteBuffer(bytes: catalogBytes)
        // The simulated store made both at its open and signs its receipts with them; a store
        // without them makes them now.
        let rawKey = try await store.signing.transactionSigningKey(create: SigningIdentity.newKey)
        let chain = try await store.signing.signingChain(create: {
            try SigningIdentity.mintChain(forKey: rawKey, at: store.clock.now())
        })
        let identity = try SigningIdentity(kept: rawKey, chain: chain)
        signer = TransactionSigner(identity: identity)
        signer.issued.load(try await store.signing.issuedSignatures())
        apiKeys = APIKeyRing(bundleId: store.catalog.bundleId)
        try await refreshSettings()
    }

    /// Writes the transaction JWS signatures issued since the last call to the store. Ones a
    /// failed write leaves out stay known for this run only.
    func saveIssuedSignatures() async throws {
        let unsaved = signer.issued.takeUnsaved()
        guard !unsaved.isEmpty else { return }
        try await store.signing.keepIssuedSignatures(unsaved)
    }

    static let apiKeysSetting = "api_keys"

    /// A server setting kept as JSON; one that is not what it should be was edited by hand, and
    /// is refused with where it is rather than read as empty.
    static func keptJSON<T: Decodable>(_ type: T.Type, _ text: String, setting: String, what: String) throws -> T {
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw StoreFailure(
                "the store's setting server.\(setting) is not \(what) (\(error.localizedDescription)); the database was edited by hand: delete that row of the settings table, or restore it from a backup",
                kind: .storage)
        }
    }

    /// The app's Apple ID, which Apple reports in production only.
    var appAppleId: Int64? {
        SimulatedStore.appAppleId(bundleId: catalog.bundleId, environment: store.environment)
    }

    /// The service over the store in `directory` (`store.sqlite`); see the other `open`.
    public static func open(
        catalog: Catalog, catalogBytes: Data, directory: StateDirectory, configuration: ServerConfiguration,
        clock: any StoreClock
    ) async throws -> StoreService {
        let database: StoreDatabase
        do {
            database = try StoreDatabase(storage: SQLiteStorage.store(in: directory, thorough: true))
        } catch let failure as StoreFailure {
            throw failure.namingServerOptions
        }
        return try await open(
            catalog: catalog, catalogBytes: catalogBytes, database: database, configuration: configuration, clock: clock
        )
    }

    /// The service over the store in `database`, after completing what a killed server left half
    /// done; `clock` is the one the store and every route and background task read and wait on.
    public static func open(
        catalog: Catalog, catalogBytes: Data, database: StoreDatabase, configuration: ServerConfiguration,
        clock: any StoreClock
    ) async throws -> StoreService {
        do {
            let store = try SimulatedStore(
                catalog: catalog, database: database, clock: clock, environment: configuration.environment.name)
            try await store.resume()
            try await store.numberTransactionsFrom(clock.now())
            return try await StoreService(store: store, configuration: configuration, catalogBytes: catalogBytes)
        } catch let failure as StoreFailure {
            throw failure.namingServerOptions
        }
    }

    var catalog: Catalog { store.catalog }

    /// The store's clock: every time a route or a background task reads or waits for.
    var clock: any StoreClock { store.clock }

    var verifier: ReceiptVerifier {
        ReceiptVerifier(store: store, environment: configuration.environment, sharedSecret: configuration.sharedSecret)
    }

    // MARK: Wire forms

    func wire(_ transactions: [Transaction]) async throws -> [WireTransaction] {
        let details = try await store.details(transactionIds: transactions.map(\.id))
        return transactions.map { transaction in
            let current = details[transaction.id]
            return WireTransaction(
                transaction, details: TransactionSigner.shownDetails(of: transaction, current: current),
                jws: signer.clientForm(
                    of: transaction, details: current, catalog: catalog, environment: store.environment))
        }
    }

    func wire(_ updates: [TransactionUpdate], cursors: [Int64?]? = nil) async throws -> WireUpdates {
        let transactions = try await wire(updates.map(\.transaction))
        let items = zip(updates, transactions).enumerated().map { index, pair in
            (cursor: cursors?[index] ?? nil, transaction: pair.1, receipt: pair.0.receipt)
        }
        return WireUpdates(items)
    }

    /// The account a path names: 400 when no catalog could have it, 404 when this one has not.
    func account(_ name: String?) throws -> Account {
        if let name { try IdRules.refuse(IdRules.accountNameProblem(name), field: "account", inPath: true) }
        guard let name, let account = catalog.account(named: name) else {
            throw APIError.notFound(
                "no account \((name ?? "").prefix(64)) in this catalog (it has \(catalog.accounts.map(\.name).joined(separator: ", ")))"
            )
        }
        return account
    }

    // MARK: Idempotency

    /// Runs `operation` at most once per optional `Idempotency-Key` (a restore): a retry with the
    /// same key and request gets the stored first response unchanged; the same key with another
    /// request is 409. Server errors (5xx) are not stored. Payments use `idempotentPayment`, whose
    /// key is required and written in the payment's own commit.
    func idempotent(
        _ request: Request, body: Data,
        _ operation: () async throws -> (HTTPResponse.Status, Data)
    ) async throws -> Response {
        guard let idempotency = try idempotentRequest(request, body: body) else {
            let (status, data) = try await operation()
            return JSONBody.response(bytes: data, status: status)
        }
        let generation: String
        switch try await idempotencyKeys.reserve(idempotency) {
        case .mismatch:
            throw Self.keyConflict(idempotency.key)
        case .completed(let stored):
            return Self.response(stored, replayed: true)
        case .reserved(let fresh), .pending(let fresh):
            generation = fresh
        }
        let status: HTTPResponse.Status
        let data: Data
        do {
            (status, data) = try await operation()
        } catch let error as APIError where error.status.code < 500 {
            (status, data) = (error.status, JSONBody.data(error.body))
        } catch let failure as StoreFailure where APIError(failure).status.code < 500 {
            let error = APIError(failure)
            (status, data) = (error.status, JSONBody.data(error.body))
        }
        let stored = try await idempotencyKeys.complete(
            key: idempotency.key, generation: generation, response: StoredResponse(status: status.code, body: data))
        return Self.response(stored, replayed: false)
    }

    /// `POST /v1/payments`: the key, the payment and its answer (201 with the `purchasing`
    /// transaction) in one commit, so a payment costs one fsync. The request compared with the
    /// key's first one is the payment as decoded and validated, re-encoded with sorted keys: the
    /// same payment written in another key order, spacing or escaping, or with the default
    /// quantity left out, is a retry, not a conflict.
    func idempotentPayment(_ request: Request, payment: Payment) async throws -> Response {
        let canonical = JSONBody.data(PaymentRequest(payment))
        guard let idempotency = try idempotentRequest(request, body: canonical) else {
            throw APIError.badRequest(
                "the \(API.idempotencyKeyHeader) header is required: a unique id per payment (e.g. a UUID), sent again unchanged with every retry",
                field: API.idempotencyKeyHeader)
        }
        let catalog = catalog
        let environment = store.environment
        let signer = signer
        let outcome = try await store.add(payment, idempotency: idempotency) { transaction, details in
            let wire = WireTransaction(
                transaction, details: details,
                jws: signer.clientForm(of: transaction, details: details, catalog: catalog, environment: environment))
            return StoredResponse(
                status: HTTPResponse.Status.created.code, body: JSONBody.data(TransactionResponse(transaction: wire)))
        }
        switch outcome {
        case .mismatch:
            throw Self.keyConflict(idempotency.key)
        case .answered(let stored, let replayed):
            return Self.response(stored, replayed: replayed)
        }
    }

    /// The request's key with the hash of its method, path and `body` (the bytes that identify the
    /// request); nil when it has no key.
    private func idempotentRequest(_ request: Request, body: Data) throws -> IdempotentRequest? {
        guard let key = request.headers[HTTPField.Name(API.idempotencyKeyHeader)!] else { return nil }
        guard (1...API.maxIdempotencyKeyLength).contains(key.utf8.count),
            key.unicodeScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E })
        else {
            throw APIError.badRequest(
                "\(API.idempotencyKeyHeader) must be 1 to \(API.maxIdempotencyKeyLength) printable ASCII characters without spaces",
                field: API.idempotencyKeyHeader)
        }
        var hasher = SHA256()
        hasher.update(data: Data("\(request.method.rawValue) \(request.uri.path)\n".utf8))
        hasher.update(data: body)
        return IdempotentRequest(
            key: key, requestHash: Self.hex(hasher.finalize()), lifetime: configuration.idempotencyLifetime,
            now: clock.now())
    }

    /// Lowercase hex, two digits a byte, written straight into the string.
    static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits: StaticString = "0123456789abcdef"
        let bytes = Array(bytes)
        return String(unsafeUninitializedCapacity: bytes.count * 2) { buffer in
            for (index, byte) in bytes.enumerated() {
                buffer[2 * index] = digits.utf8Start[Int(byte >> 4)]
                buffer[2 * index + 1] = digits.utf8Start[Int(byte & 15)]
            }
            return bytes.count * 2
        }
    }

    private static func keyConflict(_ key: String) -> APIError {
        APIError.conflict(
            "\(API.idempotencyKeyHeader) \(key) was already used for a different request; use a new key for a new payment",
            code: "idempotency_conflict")
    }

    private static func response(_ stored: StoredResponse, replayed: Bool) -> Response {
        var response = JSONBody.response(bytes: stored.body, status: HTTPResponse.Status(code: stored.status))
        if replayed { response.headers[HTTPField.Name(API.replayedHeader)!] = "true" }
        return response
    }
}

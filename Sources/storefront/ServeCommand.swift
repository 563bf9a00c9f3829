import AppSide
import ArgumentParser
import Foundation
import LocalState
import Logging
import PostgresStore
import StoreClient
import StoreCore
import StoreEngine
import StoreKitModel
import StoreServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract:
            "Serve the store over HTTP: the payment queue for several devices, verifyReceipt, signed transactions.",
        discussion: """
            The simulated store's semantics behind a versioned JSON API (docs/api.md), so several terminals of
            one account share one store. Clients use `storefront --store http://HOST:PORT` (and --store on every
            headless command). /admin needs Authorization: Bearer <admin token>; without --admin-token (or
            $STOREFRONT_ADMIN_TOKEN) a token is generated and printed at start.

            State: --db DIR is a directory holding store.sqlite: the store as the simulated store keeps it, with
            the idempotency keys and the transaction-signing key. Default: $STOREFRONT_DB, else the state directory's `server` subdirectory ($STOREFRONT_HOME/server, …).
            --db postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE keeps the store in PostgreSQL instead, where any number \
            of servers may share it behind one address (docs/operations.md); the schema is created or upgraded at start. \
            ?sslmode= as libpq's: disable, prefer (the default: TLS when the server offers it, unverified), require \
            (always TLS), verify-ca or verify-full (TLS with the certificate checked against ?sslrootcert=FILE, \
            verify-full also against the host). The password is never printed, logged or stored.
            SIGTERM or SIGINT shuts down gracefully: in-flight requests finish, requests still arriving are \
            answered 503, and every connection is closed within 5 s.

            Limits (docs/api.md, "Limits"): a connection beyond --max-connections, or a request whose body \
            has no room in --max-buffered-body, is answered 503 with Retry-After. A request must arrive in \
            full within --request-timeout of its first byte, or it is answered 408 and its connection \
            closed. A connection that sends nothing for --idle-timeout, unless the server is answering it, \
            is closed.
            """
    )

    @Option(
        name: .long,
        help: "Address to bind. Anything but loopback is reachable from the network (a warning is printed).")
    var host = "127.0.0.1"

    @Option(name: .long, help: "Port to listen on; 0 picks a free one (printed at start).")
    var port = 8080

    @Option(
        name: .long,
        help: ArgumentHelp(
            "State directory of the server (store.sqlite), or a postgres:// URL. Default: $STOREFRONT_DB, else <state dir>/server.",
            valueName: "dir|url"))
    var db: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --db postgres://: connections to PostgreSQL (reads and writes in flight at once). Default: \(PostgresStorage.defaultPoolSize).",
            valueName: "n"))
    var dbPoolSize = PostgresStorage.defaultPoolSize

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --db postgres://: seconds to wait for a connection to PostgreSQL before giving up. Default: 10.",
            valueName: "seconds"))
    var dbConnectTimeout: Double = 10

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --db postgres://: seconds one statement may take, waiting for the write lock included, before PostgreSQL cancels it. Default: 30.",
            valueName: "seconds"))
    var dbStatementTimeout: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp("Catalog: a products.json or .storekit file, or an http(s):// URL.", valueName: "path|url"))
    var catalog = "products.json"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Token for /admin: \(AdminToken.rule). Default: $STOREFRONT_ADMIN_TOKEN, else a random one, printed at start.",
            valueName: "token"))
    var adminToken: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Read the /admin token from the first line of this file, so it is not in ps.", valueName: "path"))
    var adminTokenFile: String?

    @Option(
        name: .long,
        help:
            "Environment of receipts and signed data: sandbox, production (verifyReceipt answers 21007/21008 across them), xcode or local-testing (Apple's verifiers skip signature checks for these two)."
    )
    var environment = "sandbox"

    @Option(
        name: .long,
        help: ArgumentHelp(
            "verifyReceipt's shared secret (`password`). Default: $STOREFRONT_SHARED_SECRET, else not checked.",
            valueName: "secret"))
    var sharedSecret: String?

    @Option(
        name: .customLong("api-key"),
        help: ArgumentHelp(
            "A key that may call the App Store Server API (/inApps): ISSUER_ID:KEY_ID:FILE, FILE being the .p8 private key App Store Connect hands out or its public key (PEM). Repeatable; /admin/api-keys registers more.",
            valueName: "issuer:kid:file"))
    var apiKeys: [String] = []

    @Option(
        name: .customLong("notify"),
        help: ArgumentHelp(
            "Send App Store Server Notifications V2 to this URL (http or https): each store event is POSTed as {\"signedPayload\"} and retried on Apple's schedule until the receiver answers 2xx. Repeatable; PUT /admin/notification-urls sets more.",
            valueName: "url"))
    var notifyURLs: [String] = []

    @Option(
        name: .customLong("notify-timeout"),
        help: ArgumentHelp(
            "Seconds a notification receiver has to answer one attempt (0.1 to 60); then the attempt counts as timed out and is retried.",
            valueName: "seconds"))
    var notifyTimeout = 5.0

    @Option(
        name: .customLong("notify-concurrency"),
        help: ArgumentHelp(
            "Notification deliveries in flight at once to one URL (1 to 32): a receiver that hangs holds at most these, each until --notify-timeout, and never delays another URL.",
            valueName: "count"))
    var notifyConcurrency = 4

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Connections served at once (1 to 65536); a connection beyond them is answered 503 and closed.",
            valueName: "n"))
    var maxConnections = ConnectionLimits.standard.maxConnections

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a request has, from its first byte, to arrive in full (head and body); then 408 and the connection is closed.",
            valueName: "seconds"))
    var requestTimeout = LimitText.seconds(of: ConnectionLimits.standard.requestTimeout)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Seconds a connection may send nothing, unless the server is answering it; then it is closed.",
            valueName: "seconds"))
    var idleTimeout = LimitText.seconds(of: ConnectionLimits.standard.idleTimeout)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Request bodies held at once, across connections, for requests not yet answered: bytes, or with KiB, MiB or GiB (at least 5MiB, one receipt). A request beyond it is answered 503.",
            valueName: "size"))
    var maxBufferedBody = LimitText.describe(bytes: ConnectionLimits.standard.maxBufferedBody)

    func run() async throws {
        // A parent may have started us with SIGTERM/SIGINT blocked (as test runners do); the
        // graceful shutdown needs them delivered.
        var termination = sigset_t()
        sigemptyset(&termination)
        sigaddset(&termination, SIGTERM)
        sigaddset(&termination, SIGINT)
        pthread_sigmask(SIG_UNBLOCK, &termination, nil)
        guard let environment = ServerEnvironment(rawValue: environment.lowercased()) else {
            throw CommandFailure.usage(
                "--environment \(environment): expected sandbox, production, xcode or local-testing")
        }
        guard (0...65535).contains(port) else { throw CommandFailure.usage("--port \(port): expected 0 to 65535") }
        let env = ProcessInfo.processInfo.environment
        let givenToken = try AdminToken.resolve(flag: adminToken, file: adminTokenFile, environment: env)
        if db?.isEmpty == true {
            throw CommandFailure.usage(
                "--db needs a directory or a postgres:// URL; an empty value would write the store into the current directory"
            )
        }
        let token = givenToken ?? ServerConfiguration.generateToken()
        let secret = sharedSecret ?? env["STOREFRONT_SHARED_SECRET"].flatMap { $0.isEmpty ? nil : $0 }
        var configuration = ServerConfiguration(
            host: host, port: port, environment: environment, adminToken: token, sharedSecret: secret)
        do {
            configuration.apiKeys = try apiKeys.map { flag throws(APIKeyProblem) in
                try APIKey.parse(flag: flag) { try String(contentsOfFile: $0, encoding: .utf8) }
            }
        } catch {
            throw CommandFailure.usage("--api-key: \(error.message)")
        }
        for url in notifyURLs {
            if let problem = StoreService.notificationURLProblem(url) {
                throw CommandFailure.usage("--notify: \(problem)")
            }
        }
        configuration.notifyURLs = notifyURLs
        guard notifyTimeout.isFinite, (0.1...60).contains(notifyTimeout) else {
            throw CommandFailure.usage("--notify-timeout \(notifyTimeout): expected 0.1 to 60 seconds")
        }
        configuration.notificationTimeout = .milliseconds(Int64(notifyTimeout * 1000))
        guard (1...32).contains(notifyConcurrency) else {
            throw CommandFailure.usage("--notify-concurrency \(notifyConcurrency): expected 1 to 32 deliveries per URL")
        }
        configuration.notificationConcurrencyPerURL = notifyConcurrency
        let limits = try connectionLimits(leastBody: configuration.receiptBodyLimit)
        let bytes: [UInt8]
        let loaded: Catalog
        do {
            bytes = try await CatalogLoader.bytes(from: catalog, fetcher: HTTPCatalogFetcher())
            loaded = try CatalogLoader.decode(bytes, source: catalog)
        } catch {
            throw CommandFailure.catalog(error)
        }
        let place = try storePlace(db ?? env["STOREFRONT_DB"].flatMap { $0.isEmpty ? nil : $0 }, environment: env)
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler(label: label, stream: ConsoleLog())
            handler.logLevel = .info
            return handler
        }
        let logger = Logger(label: "storefront.serve")
        let service: StoreService
        var held: [AnyObject] = []
        var shared: PostgresStorage?
        do {
            switch place {
            case .directory(let directory):
                // One server per --db: a second one would complete neither its own nor the first's
                // half-done purchases; it is refused before it opens the store.
                held.append(try ExclusiveUse(of: directory, lock: "serve.lock", by: "storefront serve"))
                service = try await StoreService.open(
                    catalog: loaded, catalogBytes: Data(bytes), directory: directory, configuration: configuration,
                    clock: SystemClock())
                held.append(try await Self.holdStoreIdentity(service.store.storeId()))
            case .postgres(let location):
                // Any number of servers share a PostgreSQL store: its writes are serialised there.
                let storage = try PostgresStorage(
                    location, migrations: PostgresStorage.storeMigrations, poolSize: dbPoolSize,
                    connectTimeout: .milliseconds(Int64(dbConnectTimeout * 1000)),
                    statementTimeout: .milliseconds(Int64(dbStatementTimeout * 1000)), server: true)
                shared = storage
                service = try await StoreService.open(
                    catalog: loaded, catalogBytes: Data(bytes), database: StoreDatabase(storage: storage),
                    configuration: configuration, clock: SystemClock())
            }
        } catch let failure as StoreFailure {
            shared?.close()
            throw CommandFailure.failure(failure.message)
        }
        if !ServerConfiguration.isLoopback(host) {
            Console.err(
                "storefront serve: warning: binding \(host), not loopback: anyone who can reach this machine can use the store (and /admin with the token)"
            )
        }
        let generated = givenToken == nil
        let host = host
        let statePlace = place.description
        do {
            try await StoreHTTPServer.run(service, limits: limits, logger: logger) { port in
                let shown = host.contains(":") ? "[\(host)]" : host
                Console.out(
                    "storefront serve: listening on http://\(shown):\(port) (\(environment.name), state \(statePlace))"
                )
                if generated { Console.out("storefront serve: admin token \(token)") }
                Console.out(
                    "storefront serve: JWS public key at http://\(shown):\(port)/.well-known/storefront-jws-key.pem")
            }
        } catch {
            shared?.close()
            throw CommandFailure.failure("the server stopped: \(error)")
        }
        // The server's presence goes with it, so a reset right after it stopped is not refused.
        shared?.close()
        withExtendedLifetime(held) {}
    }

    /// The limit flags, checked: each bad value is a usage error naming the flag and what it takes.
    /// `leastBody`: the largest body a route reads, which must fit in the buffered-body limit.
    func connectionLimits(leastBody: Int) throws -> ConnectionLimits {
        guard (1...65536).contains(maxConnections) else {
            throw CommandFailure.usage(
                "--max-connections \(maxConnections): expected a number of connections from 1 to 65536")
        }
        let request = try Self.timeout(requestTimeout, flag: "--request-timeout")
        let idle = try Self.timeout(idleTimeout, flag: "--idle-timeout")
        guard let buffered = LimitText.bytes(maxBufferedBody), buffered >= leastBody else {
            throw CommandFailure.usage(
                "--max-buffered-body \(maxBufferedBody): expected a size of at least \(LimitText.describe(bytes: leastBody)) (one receipt body), in bytes or with KiB, MiB or GiB (e.g. 64MiB)"
            )
        }
        return ConnectionLimits(
            maxConnections: maxConnections, requestTimeout: request, idleTimeout: idle, maxBufferedBody: buffered)
    }

    static func timeout(_ text: String, flag: String) throws -> Duration {
        guard let duration = LimitText.seconds(text), duration > .zero, duration <= .seconds(3600) else {
            throw CommandFailure.usage(
                "\(flag) \(text): expected seconds, more than 0 and at most 3600 (e.g. 30 or 0.5)")
        }
        return duration
    }
}

/// The server's log on standard error, through `Console` like every other line: a logged path or
/// error may quote what a client sent.
extension ServeCommand {
    /// One server per store on this machine, whatever its --db and its environment: a copy of a
    /// database carries its store's identity, and two servers on copies of one store would each
    /// issue the same transaction ids to other purchases. Held, like `serve.lock`, for the
    /// process's life.
    static func holdStoreIdentity(_ storeId: String) async throws -> MachineClaim {
        let name = "storefront-store-" + String(storeId.filter { $0.isLetter || $0.isNumber || $0 == "-" }.prefix(64))
        return try MachineClaim(name) { holder in
            "this store (id \(storeId)) is served already by another storefront serve\(holder.map { " (pid \($0))" } ?? ""), "
                + "from a copy of its database: two servers on copies of one store would issue the same transaction ids "
                + "to other purchases. Stop the other, or give this one a store of its own (another --db, or "
                + "`storefront reset --db DIR --yes`)"
        }
    }
}

private struct ConsoleLog: TextOutputStream, Sendable {
    /// `StreamLogHandler` writes an entry and its line break at once. The break is dropped by its
    /// byte: `dropLast()` on the String walks grapheme clusters, a sixth of every request's log line.
    mutating func write(_ entry: String) {
        guard entry.utf8.last == UInt8(ascii: "\n") else { return Console.err(entry) }
        Console.err(String(decoding: entry.utf8.dropLast(), as: UTF8.self))
    }
}

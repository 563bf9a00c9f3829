// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "storefront", targets: ["storefront"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", "3.0.0"..<"5.0.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.0.0"),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.0.0"),
        .package(url: "https://github.com/apple/swift-nio", from: "2.80.0"),
        .package(url: "https://github.com/apple/swift-http-types", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-certificates", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-asn1", from: "1.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl", from: "2.0.0"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.0.0"),
        .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    ],
    targets: [
        // ncursesw, wrapped so Swift 6 sees the macros and globals it needs (see shim.h). No
        // pkgConfig: SwiftPM would drop its -D flags anyway (shim.h defines what matters) and warn
        // "prohibited flag(s)" on every build; the modulemap links ncursesw by name.
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        // The system's SQLite, the library GRDB links on Linux, for binding and reading the store's
        // statements directly (shim.h).
        .systemLibrary(name: "CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        // The system's zlib, for decoding the PNG images of the Retention Messaging API.
        .systemLibrary(name: "CZlib", providers: [.apt(["zlib1g-dev"])]),
        // A strict JSON parser over bytes (with every problem's line and column, and a cursor for
        // readers that build their model straight from the bytes), and large files mapped into
        // memory for it. Foundation and the C library only.
        .target(name: "JSONReading"),
        // Pure domain: products, prices, errors, and the rules for decoding and validating catalogs.
        .target(name: "StoreKitModel", dependencies: ["JSONReading"]),
        // Seeded, reproducible data for benchmarks and tests: SplitMix64 and synthetic catalogs of
        // any size. Pure.
        .target(name: "SyntheticData", dependencies: ["StoreKitModel", "JSONReading"]),
        // The seam between the app side and a store: the `StoreBackend` protocol and the values that
        // cross it (transactions, updates, outcomes, test controls, entitlements, pending payments,
        // verification results, the clock). No I/O: StoreKitModel and Foundation only.
        .target(name: "StoreCore", dependencies: ["StoreKitModel"]),
        // What only the server side keeps and reports: the App Store Server API's records
        // (transactions, history pages, subscription statuses, renewal extensions) and Server
        // Notifications V2 (types, Apple's retry schedule, deliveries, attempts). Pure.
        .target(name: "ServerRecords", dependencies: ["StoreKitModel", "StoreCore"]),
        // Where durable state lives: the state directory, its open locks, and SQLite pools that
        // commit to the disk before a write returns.
        .target(
            name: "LocalState",
            dependencies: ["StoreCore", .product(name: "GRDB", package: "GRDB.swift")]
        ),
        // What the store signs with: its P-256 key, the certificate chain that certifies it, and
        // PKCS#7 SignedData as App Store receipts use. The engine signs receipts and the server
        // JWS with the same identity, so one root verifies both.
        .target(
            name: "StoreSigning",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The seam between the store's engine and where its tables live: SQL values, rows, a
        // connection inside a read or write, the storage protocol, schema steps. No I/O.
        .target(name: "StoreSQL", dependencies: ["StoreCore"]),
        // The store's tables in a SQLite file of the state directory (GRDB): durable commits,
        // group commit, migrations.
        .target(
            name: "SQLiteStore",
            dependencies: [
                "StoreCore", "StoreSQL", "LocalState", "CSQLite", .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
        // The store's tables in a PostgreSQL database that several servers share (postgres-nio):
        // writes serialised by an advisory lock, snapshot reads, migrations.
        .target(
            name: "PostgresStore",
            dependencies: [
                "StoreCore", "StoreSQL",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                // The TLS context of `sslmode`: what verifies the server's certificate, and against which roots.
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The durable simulated store: StoreKit's payment queue, the transaction manager and receipts
        // (Apple's ASN.1 receipt in PKCS#7) over `StoreStorage`, SQLite unless told otherwise.
        .target(
            name: "StoreEngine",
            dependencies: [
                "StoreKitModel",
                "StoreCore",
                "LocalState",
                "StoreSigning",
                "ServerRecords",
                "StoreSQL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
            ]
        ),
        // The careful app: its ledger of orders, deliveries and balances, and the purchase observer
        // that delivers once, verifies, then finishes.
        .target(
            name: "AppSide",
            dependencies: [
                "StoreKitModel",
                "StoreCore",
                "LocalState",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The HTTP API's wire format (JSON messages, headers), shared by the server and the client.
        .target(name: "StoreAPI", dependencies: ["StoreKitModel", "StoreCore"]),
        // The HTTP backend (`storefront serve`): the simulated store's semantics over a versioned JSON API,
        // Apple's verifyReceipt contract, and ES256-signed transactions.
        .target(
            name: "StoreServer",
            dependencies: [
                "StoreKitModel",
                "StoreCore",
                "LocalState",
                "StoreSQL",
                "SQLiteStore",
                "StoreEngine",
                "StoreSigning",
                "StoreAPI",
                "ServerRecords",
                "JSONReading",
                "CZlib",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
                // Delivers server notifications (NIOSSL to tell a TLS failure apart).
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ]
        ),
        // The remote `StoreBackend`: the same seam over the server's HTTP API.
        .target(
            name: "StoreClient",
            dependencies: [
                "StoreKitModel",
                "StoreCore",
                "StoreAPI",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        // The in-memory screen the pure UI renders into: cells, roles, keys, text width. Depends on nothing.
        .target(name: "CellGrid"),
        // The only code that calls ncurses: paints a Grid, reads keys, restores the terminal.
        .target(name: "TerminalUI", dependencies: ["CNcursesw", "CellGrid"]),
        // A painted grid as a file: text, ANSI colours, SVG (screenshots, tapes, bug reports). Pure.
        .target(name: "ScreenCapture", dependencies: ["CellGrid"]),
        // A program in a pseudo-terminal, and asciicast v2 recordings of what it shows.
        .target(name: "TerminalRecording", dependencies: ["CPseudoTerminal", "TapeScript"]),
        // VHS tapes: the commands `storefront play` runs, parsed with every problem's line and column. Pure.
        .target(name: "TapeScript", dependencies: ["ScreenCapture"]),
        // Scenarios: prepared situations as plain data (JSON or YAML), validated with every
        // problem's place, and the built-in ones. Pure: parsing only.
        .target(
            name: "Scenarios",
            dependencies: ["StoreKitModel", "StoreCore", "JSONReading", .product(name: "Yams", package: "Yams")]
        ),
        // posix_openpt and its kin, which Swift's Glibc module leaves undeclared.
        .systemLibrary(name: "CPseudoTerminal"),
        // The pure UI core (Elm architecture): state, actions, reduce → effects, view → cell grid.
        // It uses the store core's value types only; StorefrontRuntime performs the effects.
        .target(name: "StorefrontUI", dependencies: ["StoreKitModel", "StoreCore", "CellGrid"]),
        // Performs the reducer's effects against a StoreBackend and the app side, in order, and
        // feeds their results back to the UI loop as actions.
        .target(
            name: "StorefrontRuntime",
            dependencies: ["StorefrontUI", "StoreCore", "AppSide", "StoreKitModel", "CellGrid", "ScreenCapture"]),
        .executableTarget(
            name: "storefront",
            dependencies: [
                "StoreKitModel",
                "StoreCore",
                "LocalState",
                "StoreEngine",
                "AppSide",
                "StorefrontUI",
                "StorefrontRuntime",
                "TerminalUI",
                "TerminalRecording",
                "TapeScript",
                "Scenarios",
                "ScreenCapture",
                "CellGrid",
                "StoreServer",
                "StoreClient",
                "SQLiteStore",
                "PostgresStore",
                "SyntheticData",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // A libFuzzer target over the catalog decoders. `Fuzz/run` builds it with the fuzzer; a normal
        // build makes a harmless replayer of saved inputs. CLibFuzzer only declares libFuzzer's driver.
        .systemLibrary(name: "CLibFuzzer"),
        .executableTarget(name: "CatalogFuzzer", dependencies: ["StoreKitModel", "CLibFuzzer"]),
        // In-process benchmarks (filter per keystroke, view, catalog decode); run by Benchmarks/run in release.
        .executableTarget(
            name: "storefront-bench",
            dependencies: [
                "PostgresStore", "SQLiteStore",
                "StoreKitModel", "SyntheticData", "JSONReading", "StorefrontUI", "CellGrid", "StoreCore", "LocalState",
                "StoreEngine",
                "AppSide", "StoreServer",
            ]
        ),
        // Shared by the test targets: scratch directories removed when the test process exits, a clock
        // moved by hand, a simulated store on products.json, a scripted StoreBackend.
        .target(
            name: "TestSupport",
            dependencies: [
                "StoreCore", "LocalState", "StoreEngine", "StoreKitModel", "CPseudoTerminal", "SQLiteStore",
                "PostgresStore",
                .product(name: "GRDB", package: "GRDB.swift"),
            ],
            path: "Tests/TestSupport"
        ),
        .testTarget(
            name: "StoreKitModelTests",
            dependencies: ["StoreKitModel", "JSONReading", "SyntheticData", "CellGrid"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StoreEngineTests",
            dependencies: [
                "StoreEngine", "StoreCore", "LocalState", "AppSide", "ServerRecords", "TestSupport", "SQLiteStore",
                "SyntheticData",
                "StoreSQL", "PostgresStore", .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "AppSideTests",
            dependencies: [
                "AppSide", "StoreEngine", "StoreCore", "LocalState", "StoreKitModel", "TestSupport", "SQLiteStore",
            ]
        ),
        // The effect runner against a scripted StoreBackend: order, failures as actions, the update stream.
        .testTarget(
            name: "StorefrontRuntimeTests",
            dependencies: [
                "StorefrontRuntime", "StorefrontUI", "AppSide", "StoreCore", "LocalState", "StoreKitModel", "CellGrid",
                "TestSupport",
            ]
        ),
        // Reducer tests and golden screens (the cell grid as text); no terminal needed.
        .testTarget(
            name: "StorefrontUITests",
            dependencies: [
                "StorefrontUI", "CellGrid", "StoreCore", "StoreKitModel", "SyntheticData",
                // SHA-256, for the style digest every golden file ends with.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["Golden"]
        ),
        // Route tests through Hummingbird's test client, and the served JWS key.
        .testTarget(
            name: "StoreServerTests",
            dependencies: [
                "StoreServer",
                "StoreAPI",
                // JSONValue keeps docs/openapi.json's member order, so ControlDocTests can rewrite it.
                "JSONReading",
                "StoreCore",
                "LocalState",
                "StoreEngine",
                "StoreSigning",
                "StoreKitModel",
                "TestSupport",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "X509", package: "swift-certificates"),
            ]
        ),
        .testTarget(
            name: "CellGridTests",
            // SyntheticData for its seeded random numbers (SplitMix64) only.
            dependencies: ["CellGrid", "SyntheticData"]
        ),
        // The pure parts of the driver (key decoding, role styles); the rest is checked under tmux.
        .testTarget(
            name: "ScreenCaptureTests",
            dependencies: ["ScreenCapture", "CellGrid"]
        ),
        .testTarget(
            name: "TerminalRecordingTests",
            dependencies: ["TerminalRecording"]
        ),
        .testTarget(
            name: "TapeScriptTests",
            dependencies: ["TapeScript"]
        ),
        .testTarget(
            name: "ScenariosTests",
            dependencies: ["Scenarios", "StoreKitModel", "StoreCore", "TestSupport"]
        ),
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "CellGrid"]
        ),
        // Runs the built `storefront` executable as a user would; depending on it makes `swift test` build it.
        .testTarget(
            name: "StorefrontCLITests",
            dependencies: [
                "storefront", "StoreClient", "StoreKitModel", "StoreCore", "SyntheticData", "Scenarios", "TestSupport",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// StoreKit 2's API for an app's own purchase code, and StoreKitTest's `SKTestSession` for its
// tests, against Storefront's store. Linux only: on Apple platforms the system frameworks own
// these module names, and an app imports Apple's.
#if os(Linux)
    package.products += [
        .library(name: "StoreKit", targets: ["StoreKit"]),
        .library(name: "StoreKitTest", targets: ["StoreKitTest"]),
    ]
    package.targets += [
        .target(
            name: "StoreKit",
            dependencies: [
                "StoreKitModel", "StoreCore", "LocalState", "SQLiteStore", "StoreEngine", "StoreClient", "StoreSigning",
            ]
        ),
        .target(name: "StoreKitTest", dependencies: ["StoreKit", "StoreKitModel", "StoreCore"]),
        .testTarget(
            name: "StoreKitTests",
            dependencies: [
                // `storefront` is built for the test that serves it.
                "storefront", "StoreKit", "StoreKitTest", "StoreKitModel", "StoreCore", "StoreSigning", "TestSupport",
                "AppSide",
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
    ]
#endif

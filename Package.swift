// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Storefront",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "storefront", targets: ["storefront"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/groue/GRDB.swift", from: "7.0.0"),
        .package(url: "https://github.com/apple/swift-crypto", from: "3.0.0"),
    ],
    targets: [
        // ncursesw, wrapped so Swift 6 sees the macros and globals it needs (see shim.h). No
        // pkgConfig: SwiftPM would drop its -D flags anyway (shim.h defines what matters) and warn
        // "prohibited flag(s)" on every build; the modulemap links ncursesw by name.
        .systemLibrary(
            name: "CNcursesw",
            providers: [.apt(["libncursesw5-dev"])]
        ),
        // Pure domain: products, prices, errors, catalog decoding. Foundation only.
        .target(name: "StoreKitModel"),
        // The payment queue, the simulated store (SQLite), receipts, and the careful app side.
        .target(
            name: "StoreEngine",
            dependencies: [
                "StoreKitModel",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        // The in-memory screen the pure UI renders into: cells, roles, keys. Pure Swift, no terminal.
        .target(name: "CellGrid", dependencies: ["StoreKitModel"]),
        // The only code that calls ncurses: paints a Grid, reads keys, restores the terminal.
        .target(name: "TerminalUI", dependencies: ["CNcursesw", "CellGrid"]),
        // The pure UI core (Elm architecture): state, actions, reduce → effects, view → cell grid.
        // It uses the engine's value types only; the executable performs the effects.
        .target(name: "StorefrontUI", dependencies: ["StoreKitModel", "StoreEngine", "CellGrid"]),
        .executableTarget(
            name: "storefront",
            dependencies: [
                "StoreKitModel",
                "StoreEngine",
                "StorefrontUI",
                "TerminalUI",
                "CellGrid",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        // In-process benchmarks (filter per keystroke, view, catalog decode); run by Benchmarks/run in release.
        .executableTarget(
            name: "storefront-bench",
            dependencies: ["StoreKitModel", "StorefrontUI", "CellGrid"]
        ),
        .testTarget(
            name: "StoreKitModelTests",
            dependencies: ["StoreKitModel"],
            resources: [.copy("Fixtures")]
        ),
        .testTarget(
            name: "StoreEngineTests",
            dependencies: ["StoreEngine"]
        ),
        // Reducer tests and golden screens (the cell grid as text); no terminal needed.
        .testTarget(
            name: "StorefrontUITests",
            dependencies: ["StorefrontUI", "CellGrid", "StoreEngine", "StoreKitModel"],
            exclude: ["Golden"]
        ),
        .testTarget(
            name: "CellGridTests",
            dependencies: ["CellGrid"]
        ),
        // The pure parts of the driver (key decoding, role styles); the rest is checked under tmux.
        .testTarget(
            name: "TerminalUITests",
            dependencies: ["TerminalUI", "CellGrid"]
        ),
        // Runs the built `storefront` executable as a user would; depending on it makes `swift test` build it.
        .testTarget(
            name: "StorefrontCLITests",
            dependencies: ["storefront"]
        ),
    ],
    swiftLanguageModes: [.v6]
)

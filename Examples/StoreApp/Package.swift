// swift-tools-version: 6.0
import PackageDescription

// An app's purchase code as StoreKit 2 apps write it, and its tests with StoreKitTest, built on
// Linux against Storefront: the same sources build for iOS against Apple's frameworks.
let package = Package(
    name: "StoreApp",
    platforms: [.macOS(.v14), .iOS(.v17)],
    products: [.library(name: "StoreApp", targets: ["StoreApp"])],
    dependencies: [.package(name: "Storefront", path: "../..")],
    targets: [
        .target(
            name: "StoreApp",
            dependencies: [.product(name: "StoreKit", package: "Storefront", condition: .when(platforms: [.linux]))]
        ),
        .testTarget(
            name: "StoreAppTests",
            dependencies: [
                "StoreApp",
                .product(name: "StoreKit", package: "Storefront", condition: .when(platforms: [.linux])),
                .product(name: "StoreKitTest", package: "Storefront", condition: .when(platforms: [.linux])),
            ],
            resources: [.copy("Products.storekit")]
        ),
    ],
    swiftLanguageModes: [.v6]
)

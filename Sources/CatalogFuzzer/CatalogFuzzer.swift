// A libFuzzer target over the catalog decoders: every input goes through `CatalogLoader.decode` as a
// native catalog and as a `.storekit` file, and what comes back is checked (see `CatalogFuzz.run`).
//
// One source, two executables:
// - built with `-sanitize=fuzzer,address` (`Fuzz/run`), it is a libFuzzer fuzzer;
// - built normally (`swift build`), the fuzzer runtime is absent and it replays saved inputs:
//   `CatalogFuzzer FILE_OR_DIRECTORY...` runs the same checks over a crash file or a corpus.
import CLibFuzzer
import Foundation
import StoreKitModel

enum CatalogFuzz {
    /// One input, decoded the two ways the loader can read it. A failed check traps, which libFuzzer
    /// reports as a crash with the input saved.
    static func run(_ bytes: [UInt8]) {
        for source in ["fuzz.json", "fuzz.storekit"] {
            do {
                check(try CatalogLoader.decode(bytes, source: source))
            } catch {
                check(error, source: source)
            }
        }
        checkDirectReading(bytes)
    }

    /// Products read straight from the bytes give what reading them through a tree gives: the
    /// same catalog, or the same problems in the same order.
    static func checkDirectReading(_ bytes: [UInt8]) {
        let outcomes = [CatalogLoader.ProductReading.direct, .tree].map { reading in
            Result { () throws(CatalogError) in try CatalogLoader.decode(bytes, source: "fuzz.json", reading: reading) }
        }
        switch (outcomes[0], outcomes[1]) {
        case (.success(let direct), .success(let tree)):
            precondition(direct == tree, "the direct reading gave another catalog")
        case (.failure(let direct), .failure(let tree)):
            precondition(
                direct.problems == tree.problems, "the direct reading gave other problems: \(direct) against \(tree)")
        default:
            preconditionFailure("one reading decoded the catalog and the other did not: \(outcomes)")
        }
    }

    /// A refusal has at least one problem; each names a location and is one line of plain text
    /// (no control characters that could move a terminal's cursor or hide text).
    static func check(_ error: CatalogError, source: String) {
        precondition(!error.problems.isEmpty, "a CatalogError without problems")
        for problem in error.problems {
            precondition(!problem.path.isEmpty, "a problem without a location: \(problem)")
            if let bad = problem.description.unicodeScalars.first(where: isControlOrLineBreak) {
                preconditionFailure(
                    "U+\(String(bad.value, radix: 16)) in a message: \(problem.description.debugDescription)")
            }
        }
        precondition(error.description.hasPrefix("\(source): "), "the message does not start with its source")
    }

    /// A catalog that decodes is consistent: what it refers to exists, ids are unique.
    static func check(_ catalog: Catalog) {
        precondition(!catalog.products.isEmpty, "a catalog without products")
        precondition(
            catalog.storefront(id: catalog.defaultStorefront) != nil, "the default storefront is not in the catalog")
        precondition(Set(catalog.products.map(\.id)).count == catalog.products.count, "duplicate product ids")
        precondition(Set(catalog.storefronts.map(\.id)).count == catalog.storefronts.count, "duplicate storefronts")
        precondition(
            Set(catalog.subscriptionGroups.map(\.id)).count == catalog.subscriptionGroups.count, "duplicate groups")
        for account in catalog.accounts {
            precondition(catalog.storefront(id: account.storefront) != nil, "an account in an unknown storefront")
        }
        for product in catalog.products {
            precondition(catalog.product(id: product.id) == product, "the id index does not find \(product.id)")
            for (storefront, price) in product.prices {
                precondition(catalog.storefront(id: storefront) != nil, "a price in an unknown storefront")
                precondition(price >= 0 && price <= 100_000_000, "price \(price) out of range")
            }
            if product.type.isSubscription {
                precondition(product.subscription != nil, "a subscription without a period")
            }
            if let group = product.subscription?.group {
                precondition(catalog.group(id: group) != nil, "a subscription in an unknown group")
            }
        }
    }

    static func isControlOrLineBreak(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
        default: false
        }
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func catalogFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    CatalogFuzz.run(data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? [])
    return 0
}

/// SwiftPM renames an executable's entry point to `CatalogFuzzer_main` and links `main` to it, so
/// libFuzzer's own `main` is never used: this entry point starts libFuzzer's driver itself when the
/// fuzzer runtime is linked, and replays files otherwise.
@main
enum CatalogFuzzerMain {
    static func main() {
        if cf_fuzzer_linked() != 0 {
            var argc = CommandLine.argc
            var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
            exit(cf_run_fuzzer(&argc, &argv) { data, size in catalogFuzzerTestOneInput(data, size) })
        }
        replay(CommandLine.arguments.dropFirst())
    }

    /// Replays saved inputs through the same checks: each argument is a file or a directory of files.
    static func replay(_ arguments: ArraySlice<String>) {
        var count = 0
        for argument in arguments {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: argument, isDirectory: &isDirectory) else {
                print("CatalogFuzzer: no such file: \(argument)")
                exit(2)
            }
            let paths =
                isDirectory.boolValue
                ? ((try? FileManager.default.contentsOfDirectory(atPath: argument)) ?? []).sorted().map {
                    "\(argument)/\($0)"
                }
                : [argument]
            for path in paths {
                // FileHandle, not FileManager.contents(atPath:), which leaks 4 KiB per empty file in
                // swift-foundation 6.3.
                guard let handle = FileHandle(forReadingAtPath: path) else { continue }
                defer { try? handle.close() }
                CatalogFuzz.run([UInt8]((try? handle.readToEnd()) ?? Data()))
                count += 1
            }
        }
        print("CatalogFuzzer: \(count) inputs replayed, every check held (this build has no fuzzer; see Fuzz/run)")
    }
}

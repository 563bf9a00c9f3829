import ArgumentParser
import Foundation
import StoreKitModel
import SyntheticData

/// `storefront catalog …`: tools for catalog files.
struct CatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "catalog",
        abstract: "Catalog tools: generate synthetic catalogs.",
        subcommands: [GenerateCatalogCommand.self]
    )
}

/// `storefront catalog generate --count N [--seed S] [--output FILE]`.
struct GenerateCatalogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "generate",
        abstract: "Write a synthetic catalog of N products in the products.json format.",
        discussion: """
            Deterministic: the same --count and --seed give the same bytes on every machine. Products of all
            four types with English and Chinese titles and descriptions, prices at App Store price points for
            the ten storefronts of products.json, subscription groups and introductory offers, a few products
            not sold in China and a few removed ones, and the test accounts of products.json. Apple allows at
            most 10,000 in-app purchases per app; 100,000 is a stress size.
            """
    )

    @Option(name: .long, help: ArgumentHelp("Number of products (1 to \(SyntheticCatalog.maxCount)).", valueName: "n"))
    var count: Int

    @Option(name: .long, help: ArgumentHelp("Seed of the pseudo-random sequence.", valueName: "s"))
    var seed: UInt64 = 1

    @Option(name: .long, help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"))
    var output: String?

    func validate() throws {
        guard (1...SyntheticCatalog.maxCount).contains(count) else {
            throw ValidationError("--count \(count): expected 1 to \(SyntheticCatalog.maxCount)")
        }
    }

    func run() throws {
        let bytes = SyntheticCatalog.generate(count: count, seed: seed)
        guard let output else {
            Console.out(bytes: bytes)
            return
        }
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: output), options: .atomic)
        } catch {
            throw CommandFailure.failure("\(output): cannot be written: \(error.localizedDescription)")
        }
    }
}

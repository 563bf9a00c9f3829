import ArgumentParser
import StoreKitModel

/// `storefront` with no subcommand: the storefront itself.
struct OpenCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open the storefront (the default when no subcommand is given)."
    )

    @OptionGroup var options: CatalogOptions

    func run() async throws {
        let context = try await options.resolve()
        let response = context.catalog.request(ids: context.catalog.allProductIds, storefront: context.storefront)
        Console.out(ProductTable(context: context, response: response).render())
        Console.out("")
        Console.out(context.language == .english
            ? "The interactive storefront is coming; until then use the headless commands (storefront --help)."
            : "交互式商店即将推出；在此之前请使用命令行子命令（storefront --help）。")
    }
}

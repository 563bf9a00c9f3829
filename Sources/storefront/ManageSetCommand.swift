import ArgumentParser
import StoreCore
import StoreKitModel

extension ManageCommand {
    /// `manage set NAME VALUE`: one test control, parsed as `PUT /admin/controls` parses it.
    struct Set: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Change a test control; it persists with the store.",
            discussion: """
            Settings and their values:
            \(ControlSetting.allCases.map { "  \($0.rawValue): \($0.accepted)" }.joined(separator: "\n"))
              product-outcome PRODUCT_ID OUTCOME|none: every payment of that product ends so, until none
              api-error API fail:CODE|network[:CODE]|cancel|none: that StoreKit call fails so, until none
                (API: \(SimulatedAPI.allCases.map(\.rawValue).joined(separator: ", ")); next-outcome is one payment only)
            account is the default --account; drop-order-id on makes updates come back without
            applicationUsername, as field reports describe.
            """
        )

        @Argument(help: ArgumentHelp("The setting (see below).", valueName: "setting"))
        var name: String

        @Argument(help: ArgumentHelp("Its value; product-outcome takes a product id and an outcome.", valueName: "value"))
        var values: [String] = []

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let setting = try checkedSetting()
            let session = try await options.open()
            do {
                var controls = try await session.store.controls()
                do {
                    if let setting {
                        try setting.apply(values[0], to: &controls, catalog: session.context.catalog)
                    } else if name == "api-error" {
                        try controls.setAPIError(values[0], values[1])
                    } else {
                        try controls.setProductOutcome(values[0], values[1], catalog: session.context.catalog)
                    }
                } catch {
                    throw CommandFailure.usage(error.description)
                }
                try await session.store.setControls(controls)
                Console.out((["set", name] + values).joined(separator: " "))
            } catch let failure as StoreFailure {
                throw CommandFailure.failure(failure.message)
            }
        }

        /// The setting named, with the right number of values; nil for product-outcome and
        /// api-error, which take two. Checked
        /// before the store is opened, so a mistyped command touches nothing.
        func checkedSetting() throws -> ControlSetting? {
            if name == "product-outcome" {
                guard values.count == 2 else { throw CommandFailure.usage("manage set product-outcome needs a product id and an outcome (or none)") }
                return nil
            }
            if name == "api-error" {
                guard values.count == 2 else { throw CommandFailure.usage("manage set api-error needs an API and an error (or none)") }
                return nil
            }
            guard let setting = ControlSetting(rawValue: name) else {
                throw CommandFailure.usage("manage set \(name): unknown setting; see storefront manage set --help")
            }
            guard values.count == 1 else { throw CommandFailure.usage("manage set \(name) needs one value: \(setting.accepted)") }
            return setting
        }
    }
}

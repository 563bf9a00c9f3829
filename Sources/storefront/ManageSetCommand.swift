import ArgumentParser
import StoreCore
import StoreKitModel

extension ManageCommand {
    /// `manage set NAME VALUE`: one test control, parsed as `PUT /admin/controls` parses it.
    struct SetControl: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: ManageVerb.set.rawValue,
            abstract: "Change a test control; it persists with the store.",
            discussion: """
                Settings and their values:
                \(ControlSetting.allCases.map { "  \($0.rawValue): \($0.accepted)" }.joined(separator: "\n"))
                  \(PairedControl.productOutcome.rawValue) PRODUCT_ID OUTCOME|none: every payment of that product ends so, until none
                  \(PairedControl.apiError.rawValue) API fail:CODE|network[:CODE]|cancel|none: that StoreKit call fails so, until none
                    (API: \(SimulatedAPI.allCases.map(\.rawValue).joined(separator: ", ")); next-outcome is one payment only)
                account is the default --account; drop-order-id on makes updates come back without
                applicationUsername, as field reports describe.
                time-rate is Xcode's SKTestSession.TimeRate, by token or raw value (\(TimeRate.rawValuesInWords)):
                real counts periods by the calendar in UTC; monthly-* follow Apple's table for the rate; 15m to 2s
                renew every period at that interval; the deprecated *-day rates make that time one day. Grace
                periods, billing retry and the 24 hours a parent has to answer an Ask to Buy request scale alike.
                """
        )

        @Argument(help: ArgumentHelp("The setting (see below).", valueName: "setting"))
        var name: String

        @Argument(
            help: ArgumentHelp(
                "Its value; \(PairedControl.productOutcome.rawValue) takes a product id and an outcome.",
                valueName: "value"))
        var values: [String] = []

        @OptionGroup var options: StoreOptions

        func run() async throws {
            let control = try checkedControl()
            let session = try await options.open()
            do {
                var controls = try await session.store.controls()
                do {
                    try control.apply(values, to: &controls, catalog: session.context.catalog)
                } catch {
                    throw CommandFailure.usage(error.description)
                }
                try await session.store.setControls(controls)
                Console.out(([ManageVerb.set.rawValue, name] + values).joined(separator: " "))
            } catch let failure as StoreFailure {
                throw CommandFailure.failure(failure.message)
            }
        }

        /// The control named, with the right number of values. Checked before the store is
        /// opened, so a mistyped command touches nothing.
        func checkedControl() throws -> ControlName {
            guard let control = ControlName(name) else {
                throw CommandFailure.usage("manage set \(name): unknown setting; see storefront manage set --help")
            }
            guard values.count == control.valueCount else {
                switch control {
                case .paired(.productOutcome):
                    throw CommandFailure.usage("manage set \(name) needs a product id and an outcome (or none)")
                case .paired(.apiError):
                    throw CommandFailure.usage("manage set \(name) needs an API and an error (or none)")
                case .setting(let setting):
                    throw CommandFailure.usage("manage set \(name) needs one value: \(setting.accepted)")
                }
            }
            return control
        }
    }
}

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
                \(ControlSetting.allCases.map(Self.help).joined(separator: "\n"))
                account is the default --account; drop-order-id on makes updates come back without
                applicationUsername, as field reports describe.
                time-rate is Xcode's SKTestSession.TimeRate, by token or raw value (\(TimeRate.rawValuesInWords)):
                real counts periods by the calendar in UTC; monthly-* follow Apple's table for the rate; 15m to 2s
                renew every period at that interval; the deprecated *-day rates make that time one day. Grace
                periods, billing retry and the 24 hours a parent has to answer an Ask to Buy request scale alike.
                A new rate applies at once to the subscription periods in force, as Xcode's does: what is left
                of each (and of a 12-month commitment) is measured in the new rate.
                """
        )

        @Argument(help: ArgumentHelp("The setting (see below).", valueName: "setting"))
        var name: String

        @Argument(
            help: ArgumentHelp(
                "Its value; product-outcome takes a product id and an outcome.",
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
        func checkedControl() throws -> ControlSetting {
            guard let control = ControlSetting(name) else {
                throw CommandFailure.usage("manage set \(name): unknown setting; see storefront manage set --help")
            }
            guard values.count == control.valueCount else {
                guard case .paired(let paired) = control.form else {
                    throw CommandFailure.usage("manage set \(name) needs one value: \(control.accepted)")
                }
                throw CommandFailure.usage("manage set \(name) needs \(paired.needs)")
            }
            return control
        }

        /// A control's lines in the help: `  latency: milliseconds, 0 to 600000`; a paired
        /// control's two values and what it does, and the names its first value may take.
        static func help(_ control: ControlSetting) -> String {
            guard case .paired(let paired) = control.form else { return "  \(control.name): \(control.accepted)" }
            let line = "  \(control.name) \(control.accepted): \(control.doc)"
            guard case .oneOf(let keys) = paired.keys else { return line }
            return line + "\n    (\(paired.key): \(keys.joined(separator: ", ")))"
        }
    }
}

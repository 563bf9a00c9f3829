import Foundation
import StoreAPI
import StoreCore
import StoreEngine
import StoreKitModel
import TestSupport
import Testing

/// Every row of `TestControls.table` carries its control whole: what `manage set` reads comes
/// back through the wire, the store's settings and a reopened store, and no field of
/// `TestControls` lacks a row.
@Suite struct ControlTableTests {
    static func catalog() throws -> Catalog { try StoreFixture.catalog() }

    /// A value other than the default for `control`, as `manage set` arguments: one step of its
    /// line in the sheet, or for a line that opens a picker, the catalog's last storefront (in
    /// lower case, which `manage set` accepts) or account.
    static func sample(_ control: ControlSetting, catalog: Catalog) -> [[String]] {
        var controls = TestControls()
        for line in control.sheet {
            switch line.step {
            case .change(let change): controls = change(controls, 1, catalog.products.first?.id)
            case .picker(.storefront): return [[catalog.storefronts.last?.id.lowercased() ?? ""]]
            case .picker(.account): return [[catalog.accounts.last?.name ?? ""]]
            }
        }
        switch control.wireValue(in: controls) {
        case .map(let entries)?: return entries.sorted { $0.key < $1.key }.map { [$0.key, $0.value] }
        default: return [[control.value(in: controls) ?? ""]]
        }
    }

    /// `TestControls()` with the sample of `control` set through `manage set`.
    static func sampled(_ control: ControlSetting, catalog: Catalog) throws -> TestControls {
        var controls = TestControls()
        for values in sample(control, catalog: catalog) {
            try control.apply(values, to: &controls, catalog: catalog)
        }
        return controls
    }

    @Test func namesFieldsAndKeysAreEachOneControls() {
        let table = TestControls.table
        for (what, keys) in [
            ("name", table.map(\.name)), ("wire field", table.map(\.wireField)),
            ("storage key", table.map(\.storageKey)),
            ("sheet line", table.flatMap { $0.sheet.map(\.id) }),
        ] {
            #expect(Set(keys).count == keys.count, "a \(what) is used twice: \(keys)")
        }
        #expect(table.allSatisfy { !$0.sheet.isEmpty && !$0.doc.isEmpty }, "every control has a line and a doc line")
        #expect(WireControls.CodingKeys.allCases.map(\.stringValue) == table.map(\.wireField))
        #expect(Set(ControlSetting.allCases) == Set(table))
        #expect(table.allSatisfy { ControlSetting($0.name) == $0 })
        #expect(table.allSatisfy { $0.storageKey != "saved" }, "controls.saved marks a store that saved its controls")
    }

    @Test func everyRowRoundTripsThroughTheCommandLineTheWireAndTheStore() async throws {
        let catalog = try Self.catalog()
        let decoder = JSONDecoder()
        for control in TestControls.table {
            let expected = try Self.sampled(control, catalog: catalog)
            #expect(expected != TestControls(), "\(control)'s sample changes nothing")

            // manage set: the value as it reads back sets the same.
            var again = TestControls()
            if let value = control.value(in: expected) {
                try control.apply([value], to: &again, catalog: catalog)
            } else if case .map(let entries)? = control.wireValue(in: expected) {
                for (key, value) in entries { try control.apply([key, value], to: &again, catalog: catalog) }
            }
            #expect(again == expected, "\(control) as manage set reads it back")

            // The wire: GET's answer, and a client's PUT of every field, read back.
            for everyField in [false, true] {
                let data = try JSONEncoder().encode(WireControls(expected, everyField: everyField))
                let read = try decoder.decode(WireControls.self, from: data)
                #expect(try read.applied(to: TestControls(), catalog: catalog) == expected, "\(control) on the wire")
            }

            // The store's settings, read by a store opened afresh on the same directory.
            let fixture = try StoreFixture()
            try await fixture.store.setControls(expected)
            let reopened = try StoreFixture(directory: fixture.directory)
            #expect(try await reopened.store.controls() == expected, "\(control) in the store")
        }
    }

    /// A field added to `TestControls` without a row would be neither set, carried, stored nor
    /// shown: every field must change with some row's sample.
    @Test func everyFieldOfTheControlsHasARow() throws {
        let catalog = try Self.catalog()
        let fields = { (controls: TestControls) in
            Mirror(reflecting: controls).children.map { ($0.label ?? "", String(describing: $0.value)) }
        }
        let defaults = Dictionary(uniqueKeysWithValues: fields(TestControls()))
        var covered: Set<String> = []
        for control in TestControls.table {
            for (label, value) in fields(try Self.sampled(control, catalog: catalog)) where defaults[label] != value {
                covered.insert(label)
            }
        }
        #expect(
            covered == Set(defaults.keys), "fields with no row: \(Set(defaults.keys).subtracting(covered).sorted())")
    }
}

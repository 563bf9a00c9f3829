import Foundation
import Scenarios
import StoreCore
import StoreKitModel
import Testing
import TestSupport

/// Scenario files: the built-in ones read against products.json, YAML read as JSON is, and every
/// problem reported at once with its path (and, in YAML, its line and column).
struct ScenarioDecoderTests {
    @Test func everyBuiltInScenarioReadsAgainstTheDefaultCatalog() throws {
        let catalog = try StoreFixture.catalog()
        #expect(BuiltInScenarios.names.count >= 14)
        #expect(Set(BuiltInScenarios.names).count == BuiltInScenarios.names.count, "names are unique")
        for name in BuiltInScenarios.names {
            let result = try #require(BuiltInScenarios.scenario(named: name, catalog: catalog))
            let scenario = try result.get()
            #expect(scenario.name == name)
            for language in Language.allCases {
                let line = scenario.description(in: language)
                #expect(!line.isEmpty && !line.contains("\n") && scenario.descriptions[language] != nil, "\(name) \(language)")
            }
        }
        #expect(BuiltInScenarios.scenario(named: "no-such-scenario", catalog: catalog) == nil)
    }

    @Test func yamlReadsAsTheSameScenarioAsJSON() throws {
        let catalog = try StoreFixture.catalog()
        let json = """
        {"name": "two-devices", "description": {"en": "Two devices", "zh-Hans": "两台设备"},
         "controls": {"ask-to-buy": "off", "latency": 250, "product-outcome": {"com.example.storefront.gems.100": "fail:2"}},
         "app": {"crashesDelivering": ["com.example.storefront.gems.550"]},
         "steps": [{"buy": "com.example.storefront.gems.550", "quantity": 2, "app": "killed-after-delivery", "device": "other-device"},
                   {"manage": "price-increase request last"}, {"set": "verification 21005"}, {"launch": "this-device"}]}
        """
        let yaml = """
        # the same scenario, as a team would write it by hand
        name: two-devices
        description:
          en: Two devices
          zh-Hans: 两台设备
        controls:
          ask-to-buy: off
          latency: 250
          product-outcome:
            com.example.storefront.gems.100: fail:2
        app:
          crashesDelivering: [com.example.storefront.gems.550]
        steps:
          - buy: com.example.storefront.gems.550
            quantity: 2
            app: killed-after-delivery
            device: other-device
          - manage: price-increase request last
          - set: verification 21005
          - launch: this-device
        """
        let fromJSON = try ScenarioText.read(json, source: "s.json", yaml: false, catalog: catalog).get()
        let fromYAML = try ScenarioText.read(yaml, source: "s.yaml", yaml: true, catalog: catalog).get()
        #expect(fromJSON == fromYAML)
        #expect(fromJSON.controls == [ControlCommand(name: "ask-to-buy", values: ["off"]), ControlCommand(name: "latency", values: ["250"]),
                                      ControlCommand(name: "product-outcome", values: ["com.example.storefront.gems.100", "fail:2"])])
        #expect(fromJSON.steps.first == .buy(ScenarioPurchase(productId: "com.example.storefront.gems.550", quantity: 2,
                                                              app: .killedAfterDelivery, device: .other)))
        #expect(fromJSON.steps.dropFirst().first == .manage(ManageCommand(verb: .priceIncrease(.request), transaction: .last)))
        #expect(fromJSON.app.crashesDelivering == ["com.example.storefront.gems.550"])
        #expect(ScenarioText.isYAML("team/s.YML") && !ScenarioText.isYAML("s.json"))
    }

    @Test func everyProblemIsReportedAtOnceWithItsPlace() throws {
        let yaml = """
        name: Lost Order
        description: {fr: perdu}
        controls:
          verification: maybe
          storefront: XYZ
          colour: blue
        steps:
          - buy: com.example.nope
            quantity: 0
            app: exploded
          - manage: refund
          - manage: set latency 5
          - launch: tablet
          - {}
          - set: latency 5
            manage: clear
        """
        let error = try #require(ScenarioText.read(yaml, source: "bad.yaml", yaml: true, catalog: try StoreFixture.catalog()).failure)
        let lines = error.lines
        #expect(lines.first == "bad.yaml: 14 problems", "\(lines.joined(separator: "\n"))")
        for expected in [
            "name (line 1, column 7): \"Lost Order\" is not a scenario name",
            "description.fr (line 2, column 15): unknown key",
            "description (line 2, column 14): missing \"en\"",
            "controls.verification (line 4, column 17): maybe: expected ok, unreachable",
            "controls.storefront (line 5, column 15): XYZ: not a storefront of this catalog",
            "controls.colour (line 6, column 11): unknown setting \"colour\"",
            "steps[0].buy (line 8, column 10): \"com.example.nope\" is not a product of this catalog",
            "steps[0].quantity (line 9, column 15): 0 is out of range; expected 1 to 10",
            "steps[0].app (line 10, column 10): \"exploded\" is not how far the app got",
            "steps[1].manage (line 11, column 13): refund takes one transaction",
            "steps[2].manage (line 12, column 13): a test control is a step of its own",
            "steps[3].launch (line 13, column 13): \"tablet\" is not a device",
            "steps[4] (line 14, column 5): a step needs one of: buy, manage, set, launch",
            "steps[5] (line 15, column 5): a step does one thing; this one has manage and set",
        ] {
            #expect(lines.contains { $0.contains(expected) }, "missing: \(expected)\n\(lines.joined(separator: "\n"))")
        }
    }

    @Test func syntaxErrorsNameTheirLine() throws {
        let json = try #require(ScenarioText.read("{\"name\": \"x\",,}", source: "s.json", yaml: false, catalog: nil).failure)
        #expect(json.description.hasPrefix("s.json: line 1, column 14"), "\(json)")
        let yaml = try #require(ScenarioText.read("name: x\n  description: [", source: "s.yaml", yaml: true, catalog: nil).failure)
        #expect(yaml.description.hasPrefix("s.yaml: line 2, column"), "\(yaml)")
        let empty = try #require(ScenarioText.read("", source: "s.yaml", yaml: true, catalog: nil).failure)
        #expect(empty.description.contains("holds no YAML document"), "\(empty)")
    }

    /// A few hundred bytes of nested aliases would expand to billions of values ("billion laughs");
    /// the first repeated value is refused, and a large document stops at the values' limit.
    @Test func aliasesAreRefusedBeforeTheyExpand() throws {
        var lines = ["a0: &a0 [\"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\", \"lol\"]"]
        for level in 1..<12 {
            let previous = "*a\(level - 1)"
            lines.append("a\(level): &a\(level) [\(Array(repeating: previous, count: 9).joined(separator: ", "))]")
        }
        let laughs = lines.joined(separator: "\n") + "\nname: laughs\ndescription: x\nsteps: []\n"
        let problem = try #require(ScenarioText.read(laughs, source: "laughs.yaml", yaml: true, catalog: nil).failure)
        #expect(problem.description.contains("a1[0] repeats the value at line 1, column 5: YAML aliases (*name) are not supported"), "\(problem)")
        let many = "name: many\ndescription: x\nsteps: [" + Array(repeating: "1", count: 100_001).joined(separator: ", ") + "]\n"
        let tooMany = try #require(ScenarioText.read(many, source: "many.yaml", yaml: true, catalog: nil).failure)
        #expect(tooMany.description.contains("more than 100000 values"), "\(tooMany)")
    }

    @Test func storeWordsReadAsStorefrontManageTakesThem() throws {
        #expect(try ManageCommand.parse(["refund", "last"]).get() == ManageCommand(verb: .refund, transaction: .last))
        #expect(try ManageCommand.parse(["approve", "2000000000000004"]).get().action(on: "2000000000000004") == .approveAskToBuy("2000000000000004"))
        #expect(try ManageCommand.parse(["auto-renew", "off", "last"]).get() == ManageCommand(verb: .autoRenew(false), transaction: .last))
        #expect(try ManageCommand.parse(["clear"]).get().action(on: "") == .clearAll)
        #expect(ManageCommand.parse(["clear", "last"]).failure?.message == "clear takes no transaction")
        #expect(ManageCommand.parse(["price-increase", "maybe", "last"]).failure != nil)
        #expect(try ControlCommand.parse(["account"]).get() == ControlCommand(name: "account", values: [""]))
        #expect(try ControlCommand.parse(["api-error", "load-products", "network"]).get().values == ["load-products", "network"])
        #expect(ControlCommand.parse(["latency"]).failure == nil, "an empty value is allowed; the catalog check refuses it")
        #expect(ControlCommand.parse(["product-outcome", "x"]).failure?.message == "product-outcome takes two values, found 1")
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

import Foundation
import Scenarios
import StoreCore
import StoreKitModel
import TestSupport
import Testing

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
                #expect(
                    !line.isEmpty && !line.contains("\n") && scenario.descriptions[language] != nil,
                    "\(name) \(language)")
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
        #expect(
            fromJSON.controls == [
                ControlCommand(control: ControlSetting("ask-to-buy")!, values: ["off"]),
                ControlCommand(control: ControlSetting("latency")!, values: ["250"]),
                ControlCommand(
                    control: ControlSetting("product-outcome")!, values: ["com.example.storefront.gems.100", "fail:2"]),
            ])
        #expect(
            fromJSON.steps.first
                == .buy(
                    ScenarioPurchase(
                        productId: "com.example.storefront.gems.550", quantity: 2,
                        app: .killedAfterDelivery, device: .other)))
        #expect(
            fromJSON.steps.dropFirst().first
                == .manage(try #require(ManageStep(.priceIncrease, choice: "request", transaction: .last))))
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
        let error = try #require(
            ScenarioText.read(yaml, source: "bad.yaml", yaml: true, catalog: try StoreFixture.catalog()).failure)
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
        let json = try #require(
            ScenarioText.read("{\"name\": \"x\",,}", source: "s.json", yaml: false, catalog: nil).failure)
        #expect(json.description.hasPrefix("s.json: line 1, column 14"), "\(json)")
        let yaml = try #require(
            ScenarioText.read("name: x\n  description: [", source: "s.yaml", yaml: true, catalog: nil).failure)
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
        #expect(
            problem.description.contains(
                "a1[0] repeats the value at line 1, column 5: YAML aliases (*name) are not supported"), "\(problem)")
        let many =
            "name: many\ndescription: x\nsteps: [" + Array(repeating: "1", count: 100_001).joined(separator: ", ")
            + "]\n"
        let tooMany = try #require(ScenarioText.read(many, source: "many.yaml", yaml: true, catalog: nil).failure)
        #expect(tooMany.description.contains("more than 100000 values"), "\(tooMany)")
    }

    @Test func storeWordsReadAsStorefrontManageTakesThem() throws {
        #expect(try ManageStep.parse(["refund", "last"]).get() == ManageStep(.refund, transaction: .last))
        #expect(
            try ManageStep.parse(["approve", "2000000000000004"]).get().action(on: "2000000000000004")
                == .approveAskToBuy("2000000000000004"))
        let autoRenew = try ManageStep.parse(["auto-renew", "off", "last"]).get()
        #expect(autoRenew == ManageStep(.autoRenew, choice: "off", transaction: .last))
        #expect(autoRenew.action(on: "7") == .setAutoRenew("7", false))
        #expect(try ManageStep.parse(["clear"]).get().action(on: "") == .clearAll)
        #expect(ManageStep.parse(["clear", "last"]).failure?.message == "clear takes no transaction")
        #expect(
            ManageStep.parse(["refund"]).failure?.message
                == "refund takes one transaction, last or an id, and optionally --reason other or app-issue: "
                + "refund last --reason app-issue")
        // A refund request takes the customer's reason, which CONSUMPTION_REQUEST carries.
        let asked = try ManageStep.parse(["request-refund", "--reason", "legal", "last"]).get()
        #expect(asked == ManageStep(.requestRefund, requestReason: .legal, transaction: .last))
        #expect(asked.action(on: "7") == .requestRefund("7", reason: .legal))
        #expect(try ManageStep.parse(["request-refund", "last"]).get().action(on: "7") == .requestRefund("7"))
        #expect(
            ManageStep.parse(["request-refund", "last", "--reason", "app-issue"]).failure?.message
                == "--reason takes unintended-purchase, fulfillment-issue, unsatisfied-with-purchase, legal or other, "
                + "found \"app-issue\"")
        #expect(ManageStep(.refund, requestReason: .legal, transaction: .last) == nil)
        #expect(
            ManageStep.parse(["price-increase", "maybe", "last"]).failure?.message
                == "price-increase takes request, consent or decline, then a transaction: price-increase request last")
        #expect(
            ManageStep.parse(["auto-renew", "last"]).failure?.message
                == "auto-renew takes on or off, then a transaction: auto-renew off last")
        #expect(
            ManageStep.parse(["set", "latency", "5"]).failure?.message
                == "a test control is a step of its own: {\"set\": \"latency 5\"}")
        #expect(
            ManageStep.parse([]).failure?.message
                == "expected an action (approve, decline, resolve, refund [--reason other|app-issue] [--percentage P], "
                + "request-refund [--reason unintended-purchase|fulfillment-issue|unsatisfied-with-purchase|legal|other], "
                + "decline-refund, reverse-refund, "
                + "expire, renew, delete, stop-sharing, server-finish, auto-renew on|off, price-increase request|consent|decline, clear, reset, "
                + "family add ACCOUNT --family NAME|family remove ACCOUNT, "
                + "create PRODUCT --account A --date DATE [--app-account-token UUID] [--offer ID] [--auto-renew off], "
                + "message generic --account A, purchase-intent PRODUCT [--offer ID] --account A, assign ID --to ACCOUNT)"
        )
        #expect(ManageStep(.approve, choice: "on", transaction: .last) == nil)
        #expect(ManageStep(.set, transaction: nil) == nil)
        #expect(
            try ControlCommand.parse(["account"]).get()
                == ControlCommand(control: ControlSetting("account")!, values: [""]))
        #expect(
            try ControlCommand.parse(["api-error", "load-products", "network"]).get().values == [
                "load-products", "network",
            ])
        #expect(
            ControlCommand.parse(["latency"]).failure == nil, "an empty value is allowed; the catalog check refuses it")
        #expect(
            ControlCommand.parse(["product-outcome", "x"]).failure?.message
                == "product-outcome takes two values, found 1")
    }

    /// `--reason`, as `storefront manage refund` takes it, after the transaction or before it.
    @Test func aRefundStepTakesAReason() throws {
        let after = try ManageStep.parse(["refund", "last", "--reason", "app-issue"]).get()
        #expect(after == ManageStep(.refund, reason: .appIssue, transaction: .last))
        #expect(after.action(on: "7") == .refund("7", reason: .developerIssue))
        let before = try ManageStep.parse(["refund", "--reason", "other", "7"]).get()
        #expect(before.action(on: "7") == .refund("7", reason: .other))
        #expect(try ManageStep.parse(["refund", "7"]).get().action(on: "7") == .refund("7", reason: .other))
        #expect(
            ManageStep.parse(["refund", "last", "--reason", "whim"]).failure?.message
                == #"--reason takes other or app-issue, found "whim""#)
        #expect(
            ManageStep.parse(["refund", "last", "--reason"]).failure?.message
                == "--reason takes other or app-issue, found nothing")
        #expect(ManageStep(.expire, reason: .appIssue, transaction: .last) == nil, "only a refund has a reason")
    }

    /// `--percentage`, as `storefront manage refund` takes it: a prorated refund's share.
    @Test func aRefundStepTakesAPercentage() throws {
        let step = try ManageStep.parse(["refund", "--percentage", "25.5", "last", "--reason", "app-issue"]).get()
        let share = try #require(RefundPercentage(milliunits: 25_500))
        #expect(step.action(on: "7") == .refund("7", reason: .developerIssue, percentage: share))
        #expect(
            ManageStep.parse(["refund", "last", "--percentage", "100"]).failure?.message
                == #"--percentage takes a percentage above 0 and below 100, with at most three decimals (25 or 25.5), found "100""#
        )
        #expect(ManageStep.parse(["request-refund", "last", "--percentage", "25"]).failure != nil)
    }

    /// Each word names the action Xcode's transaction manager has for it; every action has one.
    @Test func everyManageWordNamesItsAction() throws {
        let expected: [ManageVerb: ManageAction] = [
            .approve: .approveAskToBuy("7"), .decline: .declineAskToBuy("7"), .resolve: .resolveIssue("7"),
            .refund: .refund("7"),
            .requestRefund: .requestRefund("7"), .declineRefund: .declineRefund("7"),
            .reverseRefund: .reverseRefund("7"), .expire: .expireSubscription("7"),
            .renew: .forceRenewal("7"), .delete: .delete("7"), .stopSharing: .stopSharing("7"),
            .serverFinish: .serverFinish("7"), .autoRenew: .setAutoRenew("7", true),
            .priceIncrease: .priceIncrease("7", .request), .clear: .clearAll, .reset: .resetToDefaults,
            .family: .setFamily(account: "7", family: "7"),
            .message: .sendMessage(account: "alice", reason: .generic),
            .purchaseIntent: .purchaseIntent(account: "alice", productId: "P", offerId: nil),
            .assign: .assign("7", account: "lena"),
        ]
        // `create` makes a transaction from words of its own (`CreateStepTests`).
        let actions = ManageVerb.actions.filter { $0 != .create }
        #expect(Set(expected.keys) == Set(actions))
        for verb in actions {
            // `family` names an account and a family, not a transaction.
            let family = ["add", "7", ManageVerb.familyOption, "7"]
            let product = verb == .purchaseIntent ? ["P"] : []
            let account = verb == .message || verb == .purchaseIntent ? ["--account", "alice"] : []
            let words =
                verb == .family
                ? [verb.rawValue] + family
                : [verb.rawValue] + verb.choices.prefix(1) + product + (verb.takesTransaction ? ["7"] : []) + account
                    + (verb == .assign ? [ManageVerb.assignOption, "lena"] : [])
            let step = try ManageStep.parse(words).get()
            #expect(step.verb == verb)
            #expect(step.action(on: "7") == expected[verb], "\(words)")
        }
    }

    /// Every control `manage set` names reads as that control, with as many values as it takes.
    @Test func everyControlNameReadsAsItsControl() throws {
        for control in ControlSetting.allCases {
            let values = Array(repeating: "x", count: control.valueCount)
            #expect(
                try ControlCommand.parse([control.name] + values).get()
                    == ControlCommand(control: control, values: values))
            #expect(ControlSetting(control.name) == control)
        }
        #expect(ControlSetting.allCases.map(\.name).suffix(2) == ["product-outcome", "api-error"])
        let catalog = try StoreFixture.catalog()
        var controls = TestControls()
        #expect(throws: ControlProblem.self) {
            try ControlSetting("api-error")!.apply(["load-products"], to: &controls, catalog: catalog)
        }
        #expect(controls == TestControls())
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let failure) = self { return failure }
        return nil
    }
}

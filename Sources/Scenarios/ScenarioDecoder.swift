import JSONReading
import StoreCore
import StoreKitModel

/// Reads a scenario from a parsed document (JSON, or YAML turned into the same tree), reporting
/// every problem with its path, as catalogs are reported. With a catalog it also checks that the
/// products, accounts and control values exist there.
public enum ScenarioDecoder {
    static let topKeys = ["name", "description", "catalog", "controls", "app", "steps"]
    static let buyKeys = ["buy", "quantity", "account", "outcome", "app", "device", "billingPlan"]
    static let stepKinds = ["buy", "manage", "set", "launch"]
    /// A scenario is a situation, not a load test: each step is a commit and a launch of the app.
    public static let maxSteps = 100

    public static func decode(_ document: JSONValue, catalog: Catalog?) -> Result<Scenario, ScenarioProblems> {
        var reader = Reader(catalog: catalog)
        let root = JSONPath.root
        guard let top = reader.check.object(document, root, allowed: topKeys) else {
            return .failure(ScenarioProblems(problems: reader.check.problems))
        }
        let name = reader.name(
            reader.check.require(top, "name", root, "the scenario's name, such as \"lost-order\""), root.key("name"))
        let descriptions = reader.descriptions(
            reader.check.require(top, "description", root, "one line in \"en\", and optionally \"zh-Hans\""),
            root.key("description"))
        // The catalog the scenario was written for is read before the rest (ScenarioDocument.catalogPath),
        // to check the rest against: here it is only checked to be a path.
        _ = reader.check.string(top["catalog"], root.key("catalog"), maxLength: 1_000)
        let controls = reader.controls(top["controls"], root.key("controls"))
        let app = reader.app(top["app"], root.key("app"))
        var steps = reader.check.array(top["steps"], root.key("steps")).map { items in
            items.prefix(maxSteps).enumerated().compactMap { index, item in
                reader.step(item, root.key("steps").index(index))
            }
        }
        if case .array(let items)? = top["steps"], items.count > maxSteps {
            reader.check.report(
                root.key("steps"),
                "\(items.count) steps is more than a scenario may have (at most \(maxSteps)); a scenario is a situation, not a load test"
            )
            steps = nil
        }
        guard reader.check.problems.isEmpty, let name, let descriptions else {
            return .failure(ScenarioProblems(problems: reader.check.problems))
        }
        return .success(
            Scenario(
                name: name, descriptions: descriptions, controls: controls,
                app: app, steps: steps ?? []))
    }

    /// True for names `--scenario` takes as a built-in's: lower-case words joined by `-`.
    public static func isName(_ text: String) -> Bool {
        let words = text.split(separator: "-", omittingEmptySubsequences: false)
        return text.utf8.count <= 64 && !words.isEmpty
            && words.allSatisfy { word in
                !word.isEmpty && word.utf8.allSatisfy { (0x61...0x7A).contains($0) || (0x30...0x39).contains($0) }
            }
    }
}

/// Everything wrong with a scenario document, each with its path.
public struct ScenarioProblems: Error, Sendable {
    public let problems: [CatalogProblem]
}

/// One pass over a scenario document, collecting problems.
private struct Reader {
    let catalog: Catalog?
    var check = Validation()

    init(catalog: Catalog?) {
        self.catalog = catalog
    }

    mutating func name(_ value: JSONValue?, _ path: JSONPath) -> String? {
        guard let text = check.string(value, path, maxLength: 64) else { return nil }
        guard ScenarioDecoder.isName(text) else {
            check.report(
                path,
                "\(brief(.string(text))) is not a scenario name (expected lower-case letters and digits in words joined by -, such as lost-order)"
            )
            return nil
        }
        return text
    }

    mutating func descriptions(_ value: JSONValue?, _ path: JSONPath) -> [Language: String]? {
        guard let object = check.object(value, path, allowed: Language.allCases.map(\.rawValue)) else { return nil }
        var descriptions: [Language: String] = [:]
        for language in Language.allCases {
            if let text = check.string(object[language.rawValue], path.key(language.rawValue), maxLength: 200) {
                descriptions[language] = text
            }
        }
        if object[Language.english.rawValue] == nil {
            check.report(path, "missing \"en\" (the description in English)")
        }
        return descriptions
    }

    mutating func controls(_ value: JSONValue?, _ path: JSONPath) -> [ControlCommand] {
        guard let object = check.object(value, path) else { return [] }
        var commands: [ControlCommand] = []
        for member in object.members {
            let at = path.key(member.key)
            if ControlSetting(member.key)?.isPaired == true {
                guard let pairs = check.object(member.value, at) else { continue }
                for pair in pairs.members {
                    guard let value = word(pair.value, at.key(pair.key)) else { continue }
                    commands += command(ControlCommand.parse([member.key, pair.key, value]), at.key(pair.key))
                }
                continue
            }
            guard let value = word(member.value, at) else { continue }
            commands += command(ControlCommand.parse(value.isEmpty ? [member.key] : [member.key, value]), at)
        }
        return commands
    }

    /// A control's value: text, or a YAML/JSON boolean as on/off, or a number as written.
    mutating func word(_ value: JSONValue, _ path: JSONPath) -> String? {
        switch value {
        case .bool(let on): return Switch(on).rawValue
        case .number(let text): return text
        default: return check.string(value, path, maxLength: 300)
        }
    }

    mutating func command(_ parsed: Result<ControlCommand, WordsProblem>, _ path: JSONPath) -> [ControlCommand] {
        switch parsed {
        case .failure(let problem):
            check.report(path, problem.message)
            return []
        case .success(let command):
            guard let catalog else { return [command] }
            var scratch = TestControls()
            do {
                try command.apply(to: &scratch, catalog: catalog)
            } catch {
                check.report(path, error.valueAndMessage)
                return []
            }
            return [command]
        }
    }

    mutating func app(_ value: JSONValue?, _ path: JSONPath) -> AppBuild {
        guard let object = check.object(value, path, allowed: ["crashesDelivering"]) else { return AppBuild() }
        let ids = check.array(object["crashesDelivering"], path.key("crashesDelivering")).map { items in
            items.enumerated().compactMap { index, item in product(item, path.key("crashesDelivering").index(index)) }
        }
        return AppBuild(crashesDelivering: ids ?? [])
    }

    mutating func product(_ value: JSONValue?, _ path: JSONPath) -> String? {
        guard let id = check.string(value, path, maxLength: Product.maxIdLength) else { return nil }
        if let catalog, catalog.product(id: id) == nil {
            check.report(path, "\(brief(.string(id))) is not a product of this catalog; see storefront products")
            return nil
        }
        return id
    }

    mutating func account(_ value: JSONValue?, _ path: JSONPath) -> String? {
        guard let name = check.string(value, path, maxLength: 100) else { return nil }
        if let catalog, catalog.account(named: name) == nil {
            check.report(
                path,
                "\(brief(.string(name))) is not an account of this catalog (it has \(catalog.accounts.map(\.name).joined(separator: ", ")))"
            )
            return nil
        }
        return name
    }

    mutating func step(_ value: JSONValue, _ path: JSONPath) -> ScenarioStep? {
        guard let object = check.object(value, path) else { return nil }
        let kinds = ScenarioDecoder.stepKinds.filter { object[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            check.report(
                path,
                kinds.isEmpty
                    ? "a step needs one of: \(ScenarioDecoder.stepKinds.joined(separator: ", "))"
                    : "a step does one thing; this one has \(kinds.joined(separator: " and "))")
            return nil
        }
        if kind == "buy" { return purchase(object, path).map(ScenarioStep.buy) }
        guard object.members.count == 1 else {
            check.report(
                path,
                "a \(kind) step has only \"\(kind)\" (found \(object.keys.filter { $0 != kind }.joined(separator: ", ")))"
            )
            return nil
        }
        let at = path.key(kind)
        switch kind {
        case "launch":
            return check.choice(object[kind], at, "a device", options: Device.allCases.map { ($0.rawValue, $0) }).map(
                ScenarioStep.launch)
        case "set":
            guard let text = check.string(object[kind], at, maxLength: 300) else { return nil }
            return command(ControlCommand.parse(words(text)), at).first.map(ScenarioStep.set)
        default:
            guard let text = check.string(object[kind], at, maxLength: 300) else { return nil }
            switch ManageStep.parse(words(text)) {
            case .success(let command): return .manage(command)
            case .failure(let problem):
                check.report(at, problem.message)
                return nil
            }
        }
    }

    mutating func purchase(_ object: JSONObject, _ path: JSONPath) -> ScenarioPurchase? {
        for member in object.members where !ScenarioDecoder.buyKeys.contains(member.key) {
            check.report(
                path.key(member.key),
                "unknown key (expected one of: \(ScenarioDecoder.buyKeys.joined(separator: ", ")))")
        }
        let productId = product(object["buy"], path.key("buy"))
        var quantity: Int? = 1
        if let value = object["quantity"] { quantity = check.integer(value, path.key("quantity"), in: 1...10) }
        var account: String?
        if let value = object["account"] { account = self.account(value, path.key("account")) }
        var outcome: PaymentOutcome?
        if let token = check.string(object["outcome"], path.key("outcome"), maxLength: 100) {
            outcome = PaymentOutcome(token: token)
            if outcome == nil {
                check.report(path.key("outcome"), "\(brief(.string(token))): expected \(PaymentOutcome.accepted)")
            }
        }
        var app = AppExit.completes
        if let value = object["app"] {
            app =
                check.choice(
                    value, path.key("app"), "how far the app got", options: AppExit.allCases.map { ($0.rawValue, $0) })
                ?? app
        }
        var device = Device.this
        if let value = object["device"] {
            device =
                check.choice(value, path.key("device"), "a device", options: Device.allCases.map { ($0.rawValue, $0) })
                ?? device
        }
        let plan = object["billingPlan"].flatMap {
            check.choice(
                $0, path.key("billingPlan"), "a billing plan",
                options: BillingPlanType.allCases.map { ($0.rawValue, $0) })
        }
        guard let productId, let quantity else { return nil }
        return ScenarioPurchase(
            productId: productId, quantity: quantity, account: account, outcome: outcome, app: app, device: device,
            billingPlan: plan)
    }

    func words(_ text: String) -> [String] {
        text.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    }
}

import ArgumentParser
import Foundation
import Scenarios
import StoreKitModel

/// `storefront scenarios`: the built-in scenarios with a line each, one's file to start from, or
/// a scenario file checked.
struct ScenariosCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenarios",
        abstract: "List the prepared situations --scenario starts from; show or check a scenario file.",
        discussion: """
            storefront --scenario NAME opens the storefront on one of them.
            A scenario file (JSON or YAML, see docs/scenario-format.md) is a team's own.
            --show NAME prints a built-in's file, to copy and change.
            --check FILE reads a file against the catalog and lists every problem.
            """
    )

    @Flag(name: .long, help: "Print JSON: each scenario's name and its description in every language.")
    var json = false

    @Option(name: .long, help: ArgumentHelp("Print this built-in scenario's file (JSON).", valueName: "name"))
    var show: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Check a scenario file (JSON, or YAML by its extension) against the catalog.", valueName: "file"))
    var check: String?

    @OptionGroup var catalog: CatalogOptions

    func run() async throws {
        if show != nil, check != nil {
            throw CommandFailure.usage("--show prints a built-in scenario and --check checks a file: give one of them")
        }
        if let show {
            guard let source = BuiltInScenarios.sources.first(where: { $0.name == show }) else {
                throw CommandFailure.usage(
                    "--show \(show): no built-in scenario of that name (\(BuiltInScenarios.names.joined(separator: ", ")))"
                )
            }
            Console.out(lines: source.json.components(separatedBy: "\n"))
            return
        }
        if let check { return try await checkFile(check) }
        // The list needs a language, not a catalog.
        let language = try catalog.language()
        var scenarios: [Scenario] = []
        for name in BuiltInScenarios.names {
            guard case .success(let scenario)? = BuiltInScenarios.scenario(named: name, catalog: nil) else { continue }
            scenarios.append(scenario)
        }
        if json {
            let objects: [[String: Any]] = scenarios.map { scenario in
                [
                    "name": scenario.name,
                    "description": Dictionary(
                        uniqueKeysWithValues: scenario.descriptions.map { ($0.key.rawValue, $0.value) }),
                ]
            }
            let data = try JSONSerialization.data(
                withJSONObject: objects, options: [.sortedKeys, .withoutEscapingSlashes])
            Console.json(String(decoding: data, as: UTF8.self))
            return
        }
        let width = scenarios.map(\.name.count).max() ?? 0
        for scenario in scenarios {
            Console.out(
                scenario.name.padding(toLength: width + 2, withPad: " ", startingAt: 0)
                    + scenario.description(in: language))
        }
    }

    private func checkFile(_ path: String) async throws {
        let scenario = try await ScenarioChoice(path, flag: "--check").check(catalog: catalog)
        func count(_ number: Int, _ noun: String) -> String { "\(number) \(noun)\(number == 1 ? "" : "s")" }
        Console.out(
            "\(path): scenario \(scenario.name), \(count(scenario.controls.count, "control")), \(count(scenario.steps.count, "step")): ok"
        )
    }
}

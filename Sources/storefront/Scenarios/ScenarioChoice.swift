import Foundation
import LocalState
import Scenarios
import StoreKitModel

/// `--scenario NAME|FILE`: a built-in scenario by name, or a scenario file (JSON, or YAML by its
/// extension), read and checked before anything is touched.
struct ScenarioChoice {
    let argument: String
    /// The scenario's text and what it is called in messages.
    let text: String
    let source: String
    let yaml: Bool
    /// The directory a file's relative `catalog` is read from; nil for a built-in.
    let directory: URL?

    init(_ argument: String) throws {
        self.argument = argument
        if let builtIn = BuiltInScenarios.sources.first(where: { $0.name == argument }) {
            (text, source, yaml, directory) = (builtIn.json, "built-in scenario \(argument)", false, nil)
            return
        }
        let url = URL(fileURLWithPath: argument)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw CommandFailure.usage("""
                --scenario \(argument): no built-in scenario of that name and no such file \
                (built in: \(BuiltInScenarios.names.joined(separator: ", ")); storefront scenarios describes them)
                """)
        }
        do {
            text = try String(contentsOf: url, encoding: .utf8)
        } catch {
            throw CommandFailure.failure("\(argument): cannot read the scenario file (\(error.localizedDescription)); it must be UTF-8 text")
        }
        (source, yaml, directory) = (argument, ScenarioText.isYAML(argument), url.deletingLastPathComponent())
    }

    /// The scenario checked against the catalog it will run on: every problem at once.
    func read(catalog: Catalog?) throws -> Scenario {
        switch ScenarioText.read(text, source: source, yaml: yaml, catalog: catalog) {
        case .success(let scenario): return scenario
        case .failure(let error): throw CommandFailure.catalog(error)
        }
    }

    /// The scenario's own catalog (relative to its file), unless `--catalog` chose one.
    func catalog(flag: String?) -> String? {
        if let flag { return flag }
        guard let path = ScenarioText.catalogPath(text, yaml: yaml) else { return nil }
        if path.hasPrefix("/") || CatalogLoader.isURL(path) { return path }
        return (directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(path).path
    }

    /// Where the scenario's store and app live: `--state DIR` when given (it must hold no store
    /// yet), else a directory of its own under the default state directory, emptied first, so
    /// every start is the same situation and the user's own state is never touched.
    func stateDirectory(scenario: Scenario, flag: String?) throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        if let flag {
            try Self.refuseUsed(flag)
            let url = URL(fileURLWithPath: flag)
            try create(url)
            return url
        }
        let url = StateDirectory.resolve(flag: nil, environment: environment).url
            .appendingPathComponent("scenarios").appendingPathComponent(scenario.name)
        do {
            if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
        } catch {
            throw CommandFailure.failure("cannot empty \(url.path) for the scenario: \(error.localizedDescription)")
        }
        try create(url)
        return url
    }

    /// A scenario starts from an empty store: a directory that holds one is refused, not emptied.
    static func refuseUsed(_ state: String) throws {
        let url = URL(fileURLWithPath: state)
        let existing = ["store.sqlite", "app.sqlite"].filter { FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path) }
        guard existing.isEmpty else {
            throw CommandFailure.usage("""
                --scenario starts from an empty store, and --state \(state) already holds \(existing.joined(separator: " and ")): \
                choose a new directory, or leave out --state (each scenario then gets its own)
                """)
        }
    }

    private func create(_ url: URL) throws {
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        } catch {
            throw CommandFailure.failure("cannot create \(url.path) for the scenario: \(error.localizedDescription)")
        }
    }
}

extension ScenarioChoice {
    /// The scenario, checked against the catalog it will run on, and where it may run.
    @discardableResult
    func check(_ options: StoreOptions) async throws -> Scenario {
        if try options.storeURL(ProcessInfo.processInfo.environment) != nil {
            throw CommandFailure.usage("--scenario prepares a simulated store of its own; it cannot be combined with --store or $STOREFRONT_STORE")
        }
        var catalogOptions = options.catalog
        catalogOptions.catalog = catalog(flag: options.catalog.catalog)
        let scenario = try read(catalog: try await catalogOptions.resolve().catalog)
        if let state = options.state { try Self.refuseUsed(state) }
        return scenario
    }

    /// Prepares the scenario in its state directory and returns the options the storefront then
    /// opens with (that directory, the scenario's catalog) and a line saying where it is.
    func prepare(_ options: StoreOptions) async throws -> (options: StoreOptions, name: String, note: String) {
        var prepared = options
        prepared.catalog.catalog = catalog(flag: options.catalog.catalog)
        // Checked against the catalog before any directory is touched.
        let scenario = try await check(options)
        prepared.state = try stateDirectory(scenario: scenario, flag: options.state).path
        let session = try await prepared.open(announcing: false)
        var setup = ScenarioSetup(scenario: scenario, session: session)
        do {
            try await setup.run()
        } catch let failure as ScenarioFailure {
            throw CommandFailure.failure("\(source): steps[\(failure.step)]: \(failure.message)")
        }
        let language = session.language
        return (prepared, scenario.name, "\(language == .english ? "Scenario" : "场景") \(scenario.name): \(scenario.description(in: language)) · --state \(prepared.state ?? "")")
    }
}

import Foundation
import LocalState
import Scenarios
import StoreCore
import StoreKitModel

/// `--scenario NAME|FILE`: a built-in scenario by name, or a scenario file (JSON, or YAML by its
/// extension), read and checked before anything is touched.
struct ScenarioChoice {
    /// The scenario's text, parsed once, and what it is called in messages.
    let document: ScenarioDocument
    let source: String
    /// The directory a file's relative `catalog` is read from; nil for a built-in.
    let directory: URL?

    /// `flag`: how the command line names the choice (`--scenario`, `--check`), for messages.
    init(_ argument: String, flag: String = "--scenario") throws {
        if let builtIn = BuiltInScenarios.sources.first(where: { $0.name == argument }) {
            (source, directory) = ("built-in scenario \(argument)", nil)
            document = try Self.parse(builtIn.json, source: source, yaml: false)
            return
        }
        guard !argument.isEmpty else {
            throw CommandFailure.usage(
                "\(flag) needs a built-in scenario's name or a scenario file (storefront scenarios lists the built-in ones)"
            )
        }
        let url = URL(fileURLWithPath: argument)
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            throw CommandFailure.usage(
                """
                \(flag) \(argument): no built-in scenario of that name and no such file \
                (built in: \(BuiltInScenarios.names.joined(separator: ", ")); storefront scenarios describes them)
                """)
        }
        guard !isDirectory.boolValue else {
            throw CommandFailure.usage(
                "\(flag) \(argument) is a directory; name a scenario file (.json, .yaml or .yml) in it")
        }
        (source, directory) = (argument, url.deletingLastPathComponent())
        document = try Self.parse(
            try Self.readText(url, flag: flag), source: argument, yaml: ScenarioText.isYAML(argument))
    }

    private static func parse(_ text: String, source: String, yaml: Bool) throws -> ScenarioDocument {
        switch ScenarioDocument.parse(text, source: source, yaml: yaml) {
        case .success(let document): return document
        case .failure(let error): throw CommandFailure.catalog(error)
        }
    }

    /// The largest scenario file read: a real one is a few kilobytes.
    static let maxBytes = 1 << 20

    private static func readText(_ url: URL, flag: String) throws -> String {
        let data: Data
        do {
            data = try Data(contentsOf: url)
        } catch {
            let why = errno != 0 ? String(cString: strerror(errno)) : "not a regular file"
            throw CommandFailure.failure(
                "\(flag) \(url.path): cannot read it (\(why)); name a scenario file you may read")
        }
        guard data.count <= maxBytes else {
            throw CommandFailure.failure(
                "\(flag) \(url.path): \(data.count) bytes is too big for a scenario (at most \(maxBytes)); a scenario holds a few steps"
            )
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw CommandFailure.failure("\(flag) \(url.path): not UTF-8 text; a scenario is a JSON or YAML file")
        }
        return text
    }

    /// The scenario checked against the catalog it will run on: every problem at once.
    func read(catalog: Catalog?) throws -> Scenario {
        switch document.scenario(catalog: catalog) {
        case .success(let scenario): return scenario
        case .failure(let error): throw CommandFailure.catalog(error)
        }
    }

    /// The scenario's own catalog (relative to its file), unless `--catalog` chose one.
    func catalog(flag: String?) -> String? {
        if let flag { return flag }
        guard let path = document.catalogPath else { return nil }
        if path.hasPrefix("/") || CatalogLoader.isURL(path) { return path }
        return (directory ?? URL(fileURLWithPath: FileManager.default.currentDirectoryPath)).appendingPathComponent(
            path
        ).path
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
        let existing = ["store.sqlite", "app.sqlite"].filter {
            FileManager.default.fileExists(atPath: url.appendingPathComponent($0).path)
        }
        guard existing.isEmpty else {
            throw CommandFailure.usage(
                """
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
            throw CommandFailure.usage(
                "--scenario prepares a simulated store of its own; it cannot be combined with --store or $STOREFRONT_STORE"
            )
        }
        let scenario = try await check(catalog: options.catalog)
        if let state = options.state { try Self.refuseUsed(state) }
        return scenario
    }

    /// The scenario checked against its catalog: `--catalog`, else the one the scenario names.
    func check(catalog options: CatalogOptions) async throws -> Scenario {
        var catalogOptions = options
        catalogOptions.catalog = catalog(flag: options.catalog)
        let context: CatalogContext
        do {
            context = try await catalogOptions.resolve()
        } catch let failure as CommandFailure where options.catalog == nil && catalogOptions.catalog != nil {
            // The catalog the scenario names: say so, not only what the loader says of the file.
            throw CommandFailure(
                lines: ["\(source): its catalog \(catalogOptions.catalog ?? ""):"] + failure.lines.map { "  " + $0 },
                status: failure.status)
        }
        return try read(catalog: context.catalog)
    }

    /// Prepares the scenario in its state directory and returns the options the storefront then
    /// opens with (that directory, the scenario's catalog), a line saying where it is, and the
    /// lock that keeps a second start of the same scenario from emptying it meanwhile.
    /// `scenario`: what `check` returned for the same options, before any directory is touched.
    func prepare(_ scenario: Scenario, _ options: StoreOptions) async throws -> PreparedScenario {
        var prepared = options
        prepared.catalog.catalog = catalog(flag: options.catalog.catalog)
        let lock = options.state == nil ? try Self.hold(scenario.name) : nil
        let created = options.state.map { !FileManager.default.fileExists(atPath: $0) } ?? true
        let state = try stateDirectory(scenario: scenario, flag: options.state)
        prepared.state = state.path
        do {
            let session = try await prepared.open(announcing: false)
            var setup = ScenarioSetup(scenario: scenario, session: session)
            try await setup.run()
            let language = session.language
            let note =
                "\(language == .english ? "Scenario" : "场景") \(scenario.name): \(scenario.description(in: language))"
            return PreparedScenario(options: prepared, name: scenario.name, note: note, lock: lock)
        } catch {
            // Half prepared is no scenario: what this start made goes.
            if created { try? FileManager.default.removeItem(at: state) }
            if let failure = error as? ScenarioFailure {
                throw CommandFailure.failure("\(source): \(failure.place): \(failure.message); nothing was prepared")
            }
            throw error
        }
    }

    /// The lock of the default directory of scenario `name`, held while this process lives.
    private static func hold(_ name: String) throws -> ExclusiveUse {
        let scenarios = StateDirectory(
            url: StateDirectory.resolve(flag: nil, environment: ProcessInfo.processInfo.environment).url
                .appendingPathComponent("scenarios"))
        do {
            try FileManager.default.createDirectory(at: scenarios.url, withIntermediateDirectories: true)
            return try ExclusiveUse(of: scenarios, lock: "\(name).lock", by: "storefront")
        } catch let failure as StoreFailure where failure.kind == .conflict {
            throw CommandFailure.failure(
                """
                scenario \(name) is open in another storefront: starting it again would empty its store under that one. \
                Quit that one first, or open a second copy with --scenario \(name) --state NEW_DIR
                """)
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        } catch {
            throw CommandFailure.failure(
                "cannot create \(scenarios.url.path) for the scenario: \(error.localizedDescription)")
        }
    }
}

/// A scenario ready to open, and the lock that keeps it ours until the process ends.
struct PreparedScenario {
    let options: StoreOptions
    let name: String
    let note: String
    let lock: ExclusiveUse?

    /// What to tell on the way out: where the scenario's state is, to go on from it.
    var exitNote: String {
        "scenario \(name) is in \(options.state ?? ""); storefront --state \(options.state ?? "") goes on from where you left it"
    }
}

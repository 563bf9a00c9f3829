import ArgumentParser
import Foundation

/// The options `play`, `record` and `screenshot` pass on to the storefront they run.
struct ChildStoreOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("State directory of the storefront it runs.", valueName: "dir"))
    var state: String?

    @Option(
        name: .long, help: ArgumentHelp("Catalog for the storefront (default: products.json).", valueName: "path|url"))
    var catalog: String?

    @Option(name: .long, help: ArgumentHelp("Test account to open the storefront as.", valueName: "name"))
    var account: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Start the storefront from this scenario (storefront scenarios lists them); it wins over a tape's Scenario line.",
            valueName: "name|file"))
    var scenario: String?

    /// `--scenario NAME`, for the storefront itself.
    static func scenarioArguments(_ scenario: String?) -> [String] {
        scenario.map { ["--scenario", $0] } ?? []
    }

    /// The arguments that name the storefront's store (for the storefront and for `manage`);
    /// `state` in place of `--state` when given. The scenario goes to the storefront alone.
    func arguments(state override: String? = nil) -> [String] {
        var arguments: [String] = []
        if let state = override ?? state { arguments += ["--state", state] }
        if let catalog { arguments += ["--catalog", catalog] }
        if let account { arguments += ["--account", account] }
        return arguments
    }
}

/// This program again, as a child: its path, and a run that keeps what it said on stderr.
enum StorefrontChild {
    /// The running executable (`/proc/self/exe`), so a child is the same build.
    static var executable: String {
        (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    }

    /// Runs `arguments` to its end; its status, what it printed and what it said on stderr.
    static func output(_ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        // Kept in a file, not a pipe: read one after the other, two pipes could each wait on the other.
        let errorsFile = FileManager.default.temporaryDirectory.appendingPathComponent(
            "storefront-child-\(UUID().uuidString).err")
        _ = FileManager.default.createFile(atPath: errorsFile.path, contents: nil)
        defer { try? FileManager.default.removeItem(at: errorsFile) }
        let errorsHandle = try FileHandle(forWritingTo: errorsFile)
        defer { try? errorsHandle.close() }
        process.standardError = errorsHandle
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let errors = (try? String(contentsOf: errorsFile, encoding: .utf8)) ?? ""
        return (process.terminationStatus, printed, errors.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Runs `arguments` (a program found on PATH, or a path) to its end; its status and stderr.
    static func run(_ arguments: [String]) throws -> (status: Int32, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (
            process.terminationStatus,
            String(decoding: message, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        )
    }
}

import Foundation

/// Runs the `storefront` executable that `swift test` built next to the test bundle.
public struct Executable {
    public struct Result: Sendable {
        public let status: Int32
        public let stdout: String
        public let stderr: String
    }

    /// The test runner (`…/debug/StorefrontPackageTests.xctest`) sits beside the executable.
    public static var url: URL {
        let runner = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        return runner.deletingLastPathComponent().appendingPathComponent("storefront")
    }

    /// The repository root, where products.json lives.
    public static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    /// `program`: another program than `storefront` (Python, a shell), found by `/usr/bin/env`.
    public static func run(
        _ arguments: [String], environment: [String: String] = [:],
        directory: URL = repositoryRoot, program: String? = nil
    ) throws -> Result {
        var env = ProcessInfo.processInfo.environment
        for key in ["LANG", "LC_ALL", "LC_MESSAGES"] { env.removeValue(forKey: key) }
        env.merge(environment) { _, new in new }
        let ran = try SpawnedProcess.run(
            executable: program == nil ? url.path : "/usr/bin/env",
            arguments: program.map { [$0] + arguments } ?? arguments, environment: env, directory: directory)
        return Result(
            status: ran.status, stdout: String(decoding: ran.stdout, as: UTF8.self),
            stderr: String(decoding: ran.stderr, as: UTF8.self))
    }

    public static func run(python arguments: [String]) throws -> Result {
        try run(arguments, program: "python3")
    }

    public static func shell(_ command: String) throws -> Result {
        try run(["-c", command], program: "sh")
    }
}

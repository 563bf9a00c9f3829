import Foundation
import TestSupport
import Testing

/// `storefront report`: one archive with the screens, the transactions, the controls, the catalog
/// and the tool's version.
@Suite struct ReportCommandTests {
    @Test func theArchiveHoldsWhatABugReportNeeds() throws {
        let directory = scratchDirectory("report")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let state = directory.appendingPathComponent("state")
        let catalog = Executable.repositoryRoot.appendingPathComponent("products.json").path
        #expect(
            try Executable.run(["buy", "com.example.storefront.removeads", "--state", state.path, "--catalog", catalog])
                .status == 0)
        #expect(
            try Executable.run(["manage", "set", "ask-to-buy", "on", "--state", state.path, "--catalog", catalog])
                .status == 0)
        let screen = state.appendingPathComponent("screens/screen-1.txt").path
        try FileManager.default.createDirectory(
            at: state.appendingPathComponent("screens"), withIntermediateDirectories: true)
        #expect(try Executable.run(["screenshot", screen, "--state", state.path, "--catalog", catalog]).status == 0)
        let cast = directory.appendingPathComponent("walkthrough.cast")
        try "{\"version\":2,\"width\":80,\"height\":24}\n".write(to: cast, atomically: true, encoding: .utf8)

        let archive = directory.appendingPathComponent("bug.tar.gz")
        let result = try Executable.run(
            [
                "report", "--state", state.path, "--catalog", catalog, "--output", archive.path, "--include", cast.path,
            ], environment: ["HOME": directory.path])
        #expect(result.status == 0, "\(result.stderr)")
        let listed = try Executable.run(["tzf", archive.path], program: "tar")
        let names = Set(
            listed.stdout.split(separator: "\n").map { $0.split(separator: "/").dropFirst().joined(separator: "/") })
        #expect(
            names.isSuperset(of: [
                "README.txt", "controls.txt", "transactions.json", "screens/screen-1.txt", "include/walkthrough.cast",
            ]), "\(names)")

        _ = try Executable.run(["xzf", archive.path, "-C", directory.path], program: "tar")
        let folder = try #require(
            try FileManager.default.contentsOfDirectory(atPath: directory.path).first {
                $0.hasPrefix("storefront-report-")
            })
        let root = directory.appendingPathComponent(folder)
        let readme = try String(contentsOf: root.appendingPathComponent("README.txt"), encoding: .utf8)
        let version = try Executable.run(["--version"]).stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(readme.contains("tool:          storefront \(version)"), "\(readme)")
        // A report is shared: the reporter's home directory is not spelled out.
        #expect(readme.contains("state:         ~/state\n") && !readme.contains(directory.path), "\(readme)")
        #expect(readme.contains("bundle id:   com.example.storefront.demo") && readme.contains("sha256:"), "\(readme)")
        #expect(
            try String(contentsOf: root.appendingPathComponent("controls.txt"), encoding: .utf8).contains(
                "ask-to-buy on\n"))
        let log =
            try JSONSerialization.jsonObject(with: Data(contentsOf: root.appendingPathComponent("transactions.json")))
            as? [String: [[String: Any]]]
        #expect(log?["alice"]?.first?["productId"] as? String == "com.example.storefront.removeads")
    }

    @Test func aMissingIncludeIsAUsageErrorBeforeAnythingIsWritten() throws {
        let result = try Executable.run(["report", "--include", "/nonexistent/x.cast", "--output", "/tmp/never.tar.gz"])
        #expect(
            result.status == 2 && result.stderr.contains("--include /nonexistent/x.cast: no such readable file"),
            "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/never.tar.gz"))
    }

    /// A report goes to a bug tracker: a password or token in a URL it names is `***`.
    @Test func aReportHoldsNoCredentialOfTheStoreOrCatalogURL() throws {
        let root = scratchDirectory("report-credentials")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("db"), arguments: ["--admin-token", "report-credentials-token"])
        defer { server.stop() }
        let withCredentials = "http://reporter:Hunter2Secret@127.0.0.1:\(server.port)"
        let archive = root.appendingPathComponent("bug.tar.gz")
        let result = try Executable.run(
            [
                "report", "--state", root.appendingPathComponent("state").path, "--store", withCredentials,
                "--catalog", withCredentials + "/v1/catalog?token=Hunter2Secret", "--output", archive.path,
            ], environment: ["HOME": root.path])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!(result.stdout + result.stderr).contains("Hunter2Secret"))
        let unpacked = root.appendingPathComponent("unpacked")
        try FileManager.default.createDirectory(at: unpacked, withIntermediateDirectories: true)
        #expect(try Executable.run(["xzf", archive.path, "-C", unpacked.path], program: "tar").status == 0)
        let found = try Executable.run(["-rl", "Hunter2Secret", unpacked.path], program: "grep")
        #expect(found.stdout.isEmpty, "files with the password: \(found.stdout)")
        let readme = try #require(
            FileManager.default.enumerator(atPath: unpacked.path)?.compactMap { $0 as? String }.first {
                $0.hasSuffix("README.txt")
            })
        let text = try String(contentsOf: unpacked.appendingPathComponent(readme), encoding: .utf8)
        #expect(text.contains("store:         remote store http://reporter:***@127.0.0.1:\(server.port)"), "\(text)")
        #expect(text.contains("/v1/catalog?token=***"), "\(text)")
    }
}

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
}

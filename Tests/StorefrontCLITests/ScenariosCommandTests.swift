import Foundation
import Scenarios
import TestSupport
import Testing

/// `storefront scenarios` and `--scenario`'s refusals, without a terminal.
struct ScenariosCommandTests {
    @Test func theListGivesEveryScenarioALineInBothLanguages() throws {
        let english = try Executable.run(["scenarios"])
        #expect(english.status == 0, "\(english.stderr)")
        let lines = english.stdout.split(separator: "\n")
        #expect(
            lines.count == BuiltInScenarios.names.count && lines.first?.hasPrefix("lost-order ") == true,
            "\(english.stdout)")
        let chinese = try Executable.run(["scenarios", "--lang", "zh-Hans"])
        #expect(chinese.stdout.contains("崩溃循环"), "\(chinese.stdout)")
        let json = try Executable.run(["scenarios", "--json"])
        let list = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [[String: Any]])
        #expect(list.count == BuiltInScenarios.names.count)
        for item in list {
            let descriptions = try #require(item["description"] as? [String: String])
            #expect(Set(descriptions.keys) == ["en", "zh-Hans"], "\(item)")
        }
    }

    @Test func aBuiltInPrintsAsAFileThatChecksClean() throws {
        let shown = try Executable.run(["scenarios", "--show", "replayed-receipt"])
        #expect(shown.status == 0 && shown.stdout.contains("\"launch\": \"other-device\""), "\(shown.stdout)")
        let directory = scratchDirectory("scenario-files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("mine.json")
        try shown.stdout.write(to: file, atomically: true, encoding: .utf8)
        let checked = try Executable.run(["scenarios", "--check", file.path])
        #expect(
            checked.status == 0 && checked.stdout.contains("scenario replayed-receipt, 0 controls, 2 steps: ok"),
            "\(checked.stdout)\(checked.stderr)")
    }

    @Test func aBadFileListsEveryProblemAndOpensNothing() throws {
        let directory = scratchDirectory("scenario-bad")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("bad.yaml")
        try """
        name: bad
        description: {en: Bad}
        controls: {account: nobody}
        steps:
          - buy: com.example.storefront.gems.100
            outcome: sometimes
        """.write(to: file, atomically: true, encoding: .utf8)
        let state = directory.appendingPathComponent("state")
        let opened = try Executable.run(["--scenario", file.path, "--state", state.path])
        #expect(opened.status == 1)
        #expect(opened.stderr.contains("bad.yaml: 2 problems"), "\(opened.stderr)")
        #expect(
            opened.stderr.contains("controls.account (line 3, column 21): nobody: not an account of this catalog"),
            "\(opened.stderr)")
        #expect(
            opened.stderr.contains("steps[0].outcome (line 6, column 14): \"sometimes\": expected success, cancel"),
            "\(opened.stderr)")
        #expect(!FileManager.default.fileExists(atPath: state.path), "nothing was prepared")
    }

    @Test func aScenarioNeverOverwritesAStateThatHoldsAStore() throws {
        let state = scratchDirectory("scenario-used-state")
        let bought = try Executable.run(["buy", "com.example.storefront.gems.100", "--state", state.path])
        #expect(bought.status == 0, "\(bought.stderr)")
        let refused = try Executable.run(["--scenario", "lost-order", "--state", state.path])
        #expect(
            refused.status == 2 && refused.stderr.contains("already holds store.sqlite and app.sqlite"),
            "\(refused.stderr)")
        let unknown = try Executable.run(["--scenario", "lost-ordr"])
        #expect(
            unknown.status == 2 && unknown.stderr.contains("no built-in scenario of that name and no such file"),
            "\(unknown.stderr)")
        let remote = try Executable.run(
            ["--scenario", "lost-order"], environment: ["STOREFRONT_STORE": "http://127.0.0.1:9"])
        #expect(remote.status == 2 && remote.stderr.contains("cannot be combined with --store"), "\(remote.stderr)")
    }
}

extension ScenariosCommandTests {
    @Test func whatIsNotAScenarioFileIsSaidPlainly() throws {
        let directory = scratchDirectory("scenario-not-files")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let empty = try Executable.run(["scenarios", "--check", ""])
        #expect(
            empty.status == 2 && empty.stderr.contains("--check needs a built-in scenario's name or a scenario file"),
            "\(empty.stderr)")
        let folder = try Executable.run(["scenarios", "--check", directory.path])
        #expect(
            folder.status == 2 && folder.stderr.contains("is a directory; name a scenario file"), "\(folder.stderr)")
        let binary = directory.appendingPathComponent("binary.json")
        try Data([0xFF, 0xFE, 0x00, 0x81]).write(to: binary)
        let notText = try Executable.run(["scenarios", "--check", binary.path])
        #expect(notText.status == 1 && notText.stderr.contains("not UTF-8 text"), "\(notText.stderr)")
        let many = directory.appendingPathComponent("many.json")
        let steps = Array(repeating: #"{"buy": "com.example.storefront.gems.100"}"#, count: 101).joined(separator: ",")
        try #"{"name": "many", "description": {"en": "Many"}, "steps": [\#(steps)]}"#.write(
            to: many, atomically: true, encoding: .utf8)
        let tooMany = try Executable.run(["scenarios", "--check", many.path])
        #expect(
            tooMany.status == 1
                && tooMany.stderr.contains("steps: 101 steps is more than a scenario may have (at most 100)"),
            "\(tooMany.stderr)")
    }

    @Test func aTapesScenarioIsCheckedBeforeAnythingRuns() throws {
        let directory = scratchDirectory("scenario-tape")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let tape = directory.appendingPathComponent("bad.tape")
        try "Set Width 90\nScenario no-such-thing\nWait /Products/\n".write(to: tape, atomically: true, encoding: .utf8)
        let played = try Executable.run(["play", tape.path, "--catalog", PlayTapeTests.catalog], directory: directory)
        #expect(played.status == 2, "\(played.stdout)\(played.stderr)")
        #expect(
            played.stderr.contains("bad.tape:2: Scenario no-such-thing: no built-in scenario of that name")
                && played.stderr.contains("nothing was run"),
            "\(played.stderr)")
    }
}

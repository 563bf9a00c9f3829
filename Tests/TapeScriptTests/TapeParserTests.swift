import Testing

@testable import TapeScript

@Suite struct TapeParserTests {
    static func steps(_ text: String) throws -> [Tape.Command] {
        try TapeParser.parse(text).get().steps.map(\.command)
    }

    @Test func vhsCommandsAndOurStoreStep() throws {
        let commands = try Self.steps(
            """
            # a comment
            Output demo.cast
            Set Width 100
            Set Height 30
            Set FontSize 22
            Set TypingSpeed 10ms
            Env LANG zh_CN.UTF-8

            Type "premium monthly"
            Type@5ms 'x'
            Down 3
            Enter@100ms 2
            Ctrl+C
            Alt+x
            Sleep 500ms
            Sleep 1.5
            Wait /Purchased/
            Wait+Line@2s /quit\\/ok/
            Screenshot out/screen.svg
            Store approve last
            """)
        #expect(
            commands == [
                .output("demo.cast"), .setWidth(100), .setHeight(30), .setIgnored("FontSize"),
                .setTypingSpeed(milliseconds: 10),
                .env(name: "LANG", value: "zh_CN.UTF-8"),
                .type("premium monthly", speedMilliseconds: nil), .type("x", speedMilliseconds: 5),
                .key(.named("Down"), count: 3, speedMilliseconds: nil),
                .key(.named("Enter"), count: 2, speedMilliseconds: 100),
                .key(.control("C"), count: 1, speedMilliseconds: nil),
                .key(.alt("x"), count: 1, speedMilliseconds: nil),
                .sleep(milliseconds: 500), .sleep(milliseconds: 1500),
                .wait(Tape.Wait(scope: .screen, timeoutMilliseconds: 15_000, pattern: "Purchased")),
                .wait(Tape.Wait(scope: .line, timeoutMilliseconds: 2000, pattern: "quit/ok")),
                .screenshot("out/screen.svg"), .store(["approve", "last"]),
            ])
    }

    @Test func keysAreTheBytesATerminalSends() {
        #expect(Tape.Key.named("Enter").bytes == [0x0D])
        #expect(Tape.Key.named("Up").bytes == Array("\u{1B}[A".utf8))
        #expect(Tape.Key.control("C").bytes == [0x03] && Tape.Key.control("s").bytes == [0x13])
        #expect(Tape.Key.alt("x").bytes == [0x1B, 0x78])
    }

    @Test func everyProblemAtOnceWithItsLineAndColumn() {
        let result = TapeParser.parse(
            """
            Set Width 100
            Enter
              Tipe "hello"
            Wait /[unclosed/
            Screenshot shot.png
            Set Height 20
            Type "unterminated
            Sleep fast
            Down 0
            Wait+Word /x/
            Output movie.gif
            Hide
            Enter please
            """)
        guard case .failure(let problems) = result else {
            Issue.record("a tape with problems was accepted")
            return
        }
        #expect(
            problems.all.map { "\($0.line):\($0.column)" } == [
                "3:3", "4:7", "5:1", "6:1", "7:6", "8:7", "9:6", "10:1", "11:1", "12:1", "13:7",
            ])
        #expect(problems.all[0].message.hasPrefix("unknown command Tipe"))
        #expect(problems.all[3].message == "Set Height must come before the first command that runs (line 2)")
        #expect(problems.all[9].message.hasPrefix("Hide is a VHS command storefront play does not run"))
        #expect(problems.all[10].message == "please is not a whole number from 1 to 100000")
    }
}

@Suite struct TapeWriterTests {
    @Test func keysBecomeTapeCommandsAndPausesBecomeWaits() throws {
        var writer = TapeWriter(width: 80, height: 24)
        writer.keys(Array("\u{1B}OB\u{1B}[B".utf8), at: 0.1, screen: "Store\nProducts 1/12")
        writer.keys(Array("ab\"c".utf8), at: 1.5, screen: "Store\nProducts 3/12\n 6:12:50 AM purchased")
        writer.keys([0x0D, 0x03, 0x1B, 0x78], at: 1.6, screen: "Store\nProducts 3/12")
        let tape = writer.finish(screen: "Store\n┌─ Confirm ─┐  list row\nProducts 3/12")
        #expect(
            tape.split(separator: "\n").dropFirst(3) == [
                "Wait /Products 1\\/12/", "Down 2", "# paused 1.4 s", "Wait /Products 3\\/12/", "Type 'ab\"c'", "Enter",
                "Ctrl+C", "Alt+x",
                "Wait /Confirm/",
            ])
        // It is a tape the parser takes.
        #expect(throws: Never.self) { try TapeParser.parse(tape).get() }
    }
}

@Suite struct TapeScenarioTests {
    @Test func aScenarioLineStartsTheRunFromIt() throws {
        let tape = try TapeParser.parse("Scenario crash-loop\nSet Width 90\nEnter\n").get()
        #expect(tape.steps.first?.command == .scenario("crash-loop"))
        guard case .failure(let problems) = TapeParser.parse("Enter\nScenario crash-loop\nScenario\n") else {
            Issue.record("a Scenario after a key was accepted")
            return
        }
        #expect(
            problems.all.map(\.description) == [
                "2:1: Scenario crash-loop must come before the first command that runs (line 1)",
                "3:9: expected a scenario: a built-in's name (storefront scenarios lists them) or a file",
            ])
    }

    @Test func aRecordedWalkthroughNamesItsScenario() throws {
        var writer = TapeWriter(width: 80, height: 24, scenario: "lost-order")
        let tape = writer.finish(screen: "Products 1/12")
        #expect(tape.split(separator: "\n").dropFirst(3).first == "Scenario lost-order")
        #expect(try TapeParser.parse(tape).get().steps.contains { $0.command == .scenario("lost-order") })
    }
}

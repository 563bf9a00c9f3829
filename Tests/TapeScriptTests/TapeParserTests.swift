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
                .wait(Tape.Wait(scope: .new, timeoutMilliseconds: 15_000, pattern: "Purchased")),
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

@Suite struct TapeExpectTests {
    @Test func expectNamesATransactionTheWalletOwnershipOrASubscription() throws {
        let commands = try TapeParserTests.steps(
            """
            Expect transaction 1 state purchased
            Expect transaction last product com.example.storefront.gems.100
            Expect transaction 2 price 1.98
            Expect wallet gems 300
            Expect owned com.example.storefront.removeads
            Expect not owned com.example.storefront.removeads
            Expect subscription com.example.storefront.premium.monthly inGracePeriod
            Wait+Screen /Owned/
            """)
        #expect(
            commands == [
                .expect(.transaction(.number(1), .state, "purchased")),
                .expect(.transaction(.last, .product, "com.example.storefront.gems.100")),
                .expect(.transaction(.number(2), .price, "1.98")),
                .expect(.wallet(balance: "gems", amount: 300)),
                .expect(.owned(productId: "com.example.storefront.removeads", owned: true)),
                .expect(.owned(productId: "com.example.storefront.removeads", owned: false)),
                .expect(.subscription(productId: "com.example.storefront.premium.monthly", state: "inGracePeriod")),
                .wait(Tape.Wait(scope: .screen, timeoutMilliseconds: 15_000, pattern: "Owned")),
            ])
    }

    @Test func aFactExpectCannotReadIsAProblemWithItsLineAndColumn() {
        guard
            case .failure(let problems) = TapeParser.parse(
                """
                Expect
                Expect transaction 0 state purchased
                Expect transaction 1 mood happy
                Expect transaction last state bought
                Expect transaction 1 price $0.99
                Expect wallet gems lots
                Expect not bought x
                Expect weather sunny
                Expect owned a b
                Wait+New /x/
                """)
        else {
            Issue.record("a tape with problems was accepted")
            return
        }
        #expect(
            problems.all.map(\.description) == [
                "1:1: Expect needs a fact: \(TapeParser.expectUsage)",
                "2:20: 0 is not a transaction: its number in the run (1 is the first bought) or last",
                "3:22: mood is not a field: state, product, price",
                "4:31: bought is not a state: purchasing, purchased, failed, restored, deferred, refunded",
                "5:28: $0.99 is not a price: a decimal number without currency, such as 0.99",
                "6:20: lots is not an amount (0 or more)",
                "7:12: expected `not owned PRODUCT`",
                "8:8: unknown fact weather: \(TapeParser.expectUsage)",
                "9:16: unexpected b",
                "10:1: Wait+New: the scopes are Wait+Screen and Wait+Line",
            ])
    }

    /// A shared tape runs with its player's admin token: its `Store` steps act on the store it
    /// plays against, never on one an option names.
    @Test func aStoreStepMayNotChooseAnotherStoreStateOrToken() {
        guard
            case .failure(let problems) = TapeParser.parse(
                """
                Store clear --store http://10.0.0.9:8080
                Store approve last --state=/tmp/other
                Store set latency 0 --admin-token t0ken
                Store clear --db postgres://shared/store
                Store refund last --catalog https://example.com/products.json
                Store approve last --account parent
                """)
        else {
            Issue.record("a tape whose Store steps choose another store was accepted")
            return
        }
        let said = "would choose another store, state or token; take it out"
        #expect(
            problems.all.map(\.description) == [
                "1:13: Store acts on the store the tape plays against: --store \(said)",
                "2:20: Store acts on the store the tape plays against: --state \(said)",
                "3:21: Store acts on the store the tape plays against: --admin-token \(said)",
                "4:13: Store acts on the store the tape plays against: --db \(said)",
                "5:19: Store acts on the store the tape plays against: --catalog \(said)",
            ])
    }

    @Test func anEnvMayNotChooseAnotherStoreStateOrToken() {
        guard
            case .failure(let problems) = TapeParser.parse(
                """
                Env STOREFRONT_STORE http://10.0.0.9:8080
                Env STOREFRONT_ADMIN_TOKEN t0ken
                Env STOREFRONT_HOME /tmp/other
                Env STOREFRONT_RETRY_SECONDS 5
                """)
        else {
            Issue.record("a tape whose Env chooses another store was accepted")
            return
        }
        #expect(problems.all.map(\.line) == [1, 2, 3])
        #expect(problems.all.allSatisfy { $0.description.contains("would choose another store, state or token") })
    }

    static let facts = StoreFacts(
        transactions: [
            "11": .init(productId: "gems", state: "purchased", price: "1.98"),
            "12": .init(productId: "removeads", state: "refunded", price: "2.99"),
        ],
        balances: ["gems": 200], owned: ["theme"], subscriptions: ["monthly": "subscribed"])

    @Test func anExpectationHoldsOrSaysWhatTheStoreHasInstead() {
        let bought = ["11", "12"]
        let holds: [Tape.Expectation] = [
            .transaction(.number(1), .state, "purchased"), .transaction(.last, .state, "refunded"),
            .transaction(.number(1), .price, "1.980"), .transaction(.last, .product, "removeads"),
            .wallet(balance: "gems", amount: 200), .wallet(balance: "coins", amount: 0),
            .owned(productId: "theme", owned: true), .owned(productId: "removeads", owned: false),
            .subscription(productId: "monthly", state: "subscribed"),
            .subscription(productId: "yearly", state: "none"),
        ]
        for expectation in holds {
            #expect(expectation.mismatch(in: Self.facts, bought: bought) == nil, "\(expectation)")
        }
        let fails: [(Tape.Expectation, String)] = [
            (.transaction(.number(1), .state, "failed"), "transaction 11 state purchased"),
            (.transaction(.number(3), .state, "purchased"), "the run bought 2 transactions"),
            (.transaction(.last, .price, "0.99"), "transaction 12 price 2.99"),
            (.wallet(balance: "gems", amount: 300), "wallet gems 200"),
            (.owned(productId: "removeads", owned: true), "not owned"),
            (.subscription(productId: "monthly", state: "expired"), "subscription monthly subscribed"),
        ]
        for (expectation, actual) in fails {
            #expect(expectation.mismatch(in: Self.facts, bought: bought) == actual, "\(expectation)")
        }
        #expect(Tape.Expectation.transaction(.last, .state, "x").mismatch(in: Self.facts, bought: []) != nil)
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

    /// tmux, screen and the Linux console send Home and End as ESC [1~ and ESC [4~ (rxvt ESC [7~
    /// and ESC [8~): keys, never Alt+[ and typed text that a typing speed splits on replay.
    @Test func homeAndEndOfEveryTerminalAreKeysAndUnnamedSequencesAreLeftOut() throws {
        var writer = TapeWriter(width: 80, height: 24)
        writer.keys(
            Array("\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~\u{1B}OH\u{1B}[15~x".utf8), at: 0.1, screen: "Products 1/12")
        let tape = writer.finish(screen: "Products 1/12")
        #expect(
            tape.split(separator: "\n").dropFirst(3) == [
                "Wait /Products 1\\/12/", "Home", "End", "Home", "End", "Home",
                "# a key no tape step names was left out (ESC [15~)", "Type \"x\"",
            ])
        #expect(throws: Never.self) { try TapeParser.parse(tape).get() }
    }

    /// Ctrl+S names its files for the moment: a Wait for that name would never match on replay.
    @Test func aSavedScreensNameIsNeverWaitedFor() throws {
        var writer = TapeWriter(width: 80, height: 24)
        writer.keys([0x13], at: 0.1, screen: "Products 1/12")
        let saved = "Products 1/12\nScreen saved: screen-20261128-231500.{txt,ansi,svg} in /root/.storefront/screens"
        writer.keys([0x71], at: 2.0, screen: saved)
        let tape = writer.finish(screen: saved)
        #expect(tape.contains("Ctrl+S"))
        #expect(!tape.contains("screen-2026"), "\(tape)")
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

    @Test func aPurchaseIsWaitedForByItsOutcomeAndExpected() throws {
        var writer = TapeWriter(width: 80, height: 24)
        let list = "Products 5/12\n> Remove Ads   Non-consumable   $2.99\nWallet: nothing yet"
        writer.keys([0x0D], at: 0.1, screen: list)
        for marker in ["purchasing 2000000000000001 removeads", "purchased 2000000000000001"] {
            writer.event(marker)
        }
        // A sheet's rows come first on the screen, the outcome's text after: the Wait takes the outcome.
        let bought =
            "Products 5/12\n│ Thank you │\n> Remove Ads   Non-consumable   Owned\nRemove Ads: delivered, verified and finished."
        writer.keys([0x71], at: 2, screen: bought)
        writer.event("revoked 2000000000000001")
        let tape = writer.finish(screen: "Products 5/12\nRemove Ads was refunded; it is withdrawn.")
        #expect(
            tape.split(separator: "\n").dropFirst(3) == [
                "Wait /Products 5\\/12/", "Enter", "# paused 1.9 s", "Wait /Owned/",
                "Expect transaction 1 state purchased", "Type \"q\"",
                "Wait /Remove Ads was refunded; it is withdrawn\\./",
                "Expect transaction 1 state refunded",
            ])
        #expect(throws: Never.self) { try TapeParser.parse(tape).get() }
    }

    @Test func aRecordedWalkthroughNamesItsScenario() throws {
        var writer = TapeWriter(width: 80, height: 24, scenario: "lost-order")
        let tape = writer.finish(screen: "Products 1/12")
        #expect(tape.split(separator: "\n").dropFirst(3).first == "Scenario lost-order")
        #expect(try TapeParser.parse(tape).get().steps.contains { $0.command == .scenario("lost-order") })
    }
}

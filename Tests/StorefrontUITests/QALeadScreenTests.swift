import CellGrid
import Foundation
import StoreCore
import StoreKitModel
import StorefrontUI
import Testing

/// The main screen as a presenter's instrument: the help scrolls and stops at its ends, the
/// transaction pane filters and scrolls, changed test controls show, and an ASCII terminal
/// keeps to what it can show.
@Suite struct QALeadScreenTests {
    typealias F = UIFixture
    static let minimum = TerminalSize(columns: 60, rows: 16)

    @Test func theHelpScrollsAndStopsAtItsEnds() {
        var state = F.state(Self.minimum)
        F.keys(&state, .character("?"), .up)
        #expect(state.sheet == .help(scroll: 0), "scrolled above the top")
        F.keys(&state, .end)
        guard case .help(let last)? = state.sheet else {
            Issue.record("the help closed")
            return
        }
        #expect(last > 0)
        F.keys(&state, .down, .pageDown)
        #expect(state.sheet == .help(scroll: last), "scrolled past the end")
        let text = Golden.text(state)
        #expect(text.contains("as an organization does (ASSIGNED)"), "the last key is reachable:\n\(text)")
        #expect(!text.contains("…│"), "a line of the help was cut:\n\(text)")
        F.keys(&state, .enter)
        #expect(state.sheet == nil)
    }

    @Test func theTransactionPaneFiltersAndScrolls() {
        var state = F.state(Self.minimum)
        let history = (1...6).map {
            F.transaction(
                "200000000000000\($0)", F.gems, $0 % 2 == 0 ? .failed : .purchased,
                error: $0 % 2 == 0 ? .storeKit(.paymentNotAllowed) : nil, finished: true)
        }
        F.send(
            &state,
            .snapshot(
                StoreSnapshot(history: history, pending: [], balances: [:], entitlements: [], controls: TestControls()))
        )
        #expect(Golden.text(state).contains("1–3 of 6"))
        F.keys(&state, .character("J"), .character("J"), .character("J"), .character("J"), .character("J"))
        #expect(state.transactionPane.scroll == 3, "scrolled past the last row")
        #expect(Golden.text(state).contains("4–6 of 6"))
        F.keys(&state, .character("v"))
        #expect(state.transactionPane == TransactionPane(filter: .purchases))
        #expect(Golden.text(state).contains("Transactions · purchases"))
        F.keys(&state, .character("v"))
        let failures = Golden.text(state)
        #expect(
            failures.contains("Transactions · failures") && failures.contains("SKError 4")
                && !failures.contains("verified"))
        F.keys(&state, .character("v"))
        #expect(Golden.text(state).contains("Nothing pending — v shows the others."))
        F.keys(&state, .character("v"))
        #expect(state.transactionPane.filter == .all)
    }

    @Test func changedControlsShowOnTheMainScreenUntilReset() {
        var state = F.state(TerminalSize(columns: 120, rows: 30))
        #expect(!Golden.text(state).contains("controls:"))
        state.controls.latencyMilliseconds = 5_000
        state.controls.askToBuy = true
        let text = Golden.text(state)
        #expect(text.contains("controls: Latency: 5000 ms · Ask to Buy: on"), "\(text)")
        #expect(text.contains("[t, Z] reset"))
        state.controls = TestControls(seed: state.catalog.settings)
        #expect(!Golden.text(state).contains("controls:"), "the catalog's own settings are the defaults")
    }

    @Test func anASCIITerminalKeepsEnglishAndSaysWhy() {
        var state = F.state(language: .simplifiedChinese)
        Reducer.useASCII(&state)
        #expect(state.language == .english)
        #expect(
            state.status?.text
                == "Chinese needs a UTF-8 locale (for example LANG=C.UTF-8); this terminal shows ASCII only.")
        F.keys(&state, .character("l"))
        #expect(state.language == .english, "switched to a language the terminal cannot show")
        #expect(Golden.text(state).contains("USD 0.99"))
    }
}

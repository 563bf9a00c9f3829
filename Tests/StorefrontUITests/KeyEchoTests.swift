import CellGrid
import Foundation
import Testing

@testable import StorefrontUI

/// `--show-keys`: the keys of the last 3 seconds at the bottom right, over sheets too.
@Suite struct KeyEchoTests {
    typealias F = UIFixture

    @Test func keysShowForThreeSecondsNewestLast() {
        var state = F.state()
        state.keyEcho = KeyEcho()
        _ = Reducer.reduce(&state, .key(.down))
        _ = Reducer.reduce(&state, .key(.down))
        _ = Reducer.reduce(&state, .key(.enter))
        let screen = View.render(state)
        let footer = screen.rows[state.size.rows - 1]
        #expect(footer.hasSuffix(" ↓ ↓ Enter "), "\(footer)")
        #expect(screen.text.contains("Confirm your in-app purchase"), "the key acted as well")
        _ = Reducer.reduce(&state, .tick(F.now.addingTimeInterval(2.9)))
        #expect(state.keyEcho?.keys.count == 3)
        _ = Reducer.reduce(&state, .tick(F.now.addingTimeInterval(3.0)))
        #expect(state.keyEcho?.keys.isEmpty == true)
        #expect(!View.render(state).rows[state.size.rows - 1].hasSuffix("Enter "))
    }

    @Test func atMostSixKeysAndOffByDefault() {
        var state = F.state()
        #expect(state.keyEcho == nil)
        _ = Reducer.reduce(&state, .key(.down))
        #expect(state.keyEcho == nil)
        state.keyEcho = KeyEcho()
        for _ in 0..<8 { _ = Reducer.reduce(&state, .key(.character("j"))) }
        _ = Reducer.reduce(&state, .key(.control("c")))
        #expect(state.keyEcho?.keys.map(\.name) == ["j", "j", "j", "j", "j", "Ctrl-C"])
    }
}

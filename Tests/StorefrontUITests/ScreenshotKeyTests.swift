import CellGrid
import Foundation
import Testing
@testable import StorefrontUI

/// Ctrl+S saves the screen as it is, whatever is open, and says where it went.
@Suite struct ScreenshotKeyTests {
    typealias F = UIFixture

    @Test func ctrlSAsksToSaveExactlyWhatIsShownAndChangesNothing() {
        var store = ReducerTestStore(F.state())
        store.press(.character("?")) { $0.sheet = .help(scroll: 0) }
        let shown = View.render(store.state)
        store.press(.control("s"), effects: [.saveScreen(shown)])
    }

    @Test func itWorksWhileFilteringAndOnAScreenTooSmall() {
        var store = ReducerTestStore(F.state())
        store.press(.character("/")) { $0.list.filtering = true }
        store.press(.control("s"), effects: [.saveScreen(View.render(store.state))])
        store.send(.resized(TerminalSize(columns: 10, rows: 3))) { $0.size = TerminalSize(columns: 10, rows: 3) }
        let tiny = View.render(store.state)
        store.press(.control("s"), effects: [.saveScreen(tiny)])
    }

    @Test func theStatusSaysWhereTheScreenWentOrWhyNot() {
        var store = ReducerTestStore(F.state())
        store.send(.screenSaved("/tmp/s/screen-20261125-060512")) {
            $0.status = ReducerTests.status("Screen saved: screen-20261125-060512.{txt,ansi,svg} in /tmp/s")
        }
        store.send(.screenNotSaved("/tmp/s: no space left")) {
            $0.status = ReducerTests.status("Screen not saved: /tmp/s: no space left", .error)
        }
    }
}

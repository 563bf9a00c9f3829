import CellGrid
import Foundation
import ScreenCapture
import StorefrontRuntime
import StorefrontUI
import TerminalRecording
import TerminalUI

/// The interactive loop: paint, read a key (or time out), drain the results of effects, reduce,
/// hand new effects to the runner. It runs on the main thread, which is not one of the
/// concurrency pool's threads, so waiting for a key never starves the effects.
@MainActor
enum UILoop {
    /// How long one wait for a key lasts; results from effects are picked up at least this often.
    static let pollMilliseconds = 40
    static let tickSeconds = 0.1

    static func run(_ initial: AppState, runner: EffectRunner, exitAfterFirstFrame: Bool) throws {
        let terminal = Terminal()
        try terminal.start()
        defer { terminal.stop() }
        var state = initial
        state.size = terminal.size
        if terminal.asciiOnly { Reducer.useASCII(&state) }
        // Set when a recorder runs this program: it marks each store event in the recording.
        let channel = SideChannelWriter()
        var lastTick = Date()
        var loading = false
        // Whether an action has come since the last frame: the screen is a function of the state,
        // so a wait that brought nothing (most of an idle second) paints nothing.
        var changed = true
        // The grid last painted (the first turn paints, as `changed` starts true).
        var painted: Grid?
        while !state.quitting {
            if changed {
                let grid = View.render(state)
                terminal.paint(grid)
                if channel?.sendsScreens == true { channel?.send(.screen(grid.text)) }
                painted = grid
            }
            if let channel, let painted { saveRequestedScreens(channel, painted) }
            if exitAfterFirstFrame { return }
            // The first frame ("Loading products…") needs none of the loading: it is painted
            // first, so the effects' work on the disk and in ICU does not share the cores with it.
            if !loading {
                runner.submit(Reducer.start(state))
                loading = true
            }
            var actions: [Action] = []
            if let key = terminal.readKey(timeoutMilliseconds: pollMilliseconds) {
                actions.append(key == .resize ? .resized(terminal.size) : .key(key))
                if key == .control("l") { terminal.invalidate() }
            }
            let now = Date()
            if now.timeIntervalSince(lastTick) >= tickSeconds {
                actions.append(.tick(now))
                lastTick = now
            }
            changed =
                runner.turn(actions, state: &state) { state, action in
                    if let channel {
                        for marker in StoreEventMarkers.markers(for: action) { channel.send(.marker(marker)) }
                    }
                    return Reducer.reduce(&state, action)
                } > 0
        }
    }

    /// Screenshots a tape asked for, of the screen as last painted, in the format each name says.
    private static func saveRequestedScreens(_ channel: SideChannelWriter, _ grid: Grid) {
        for path in channel.requestedScreenshots() {
            guard let format = Screenshot.Format(fileName: path) else {
                channel.send(.notSaved(path: path, reason: "name a .txt, .ansi or .svg file"))
                continue
            }
            do {
                // A new file renamed into place: never written through a link the name may be.
                try Data(Screenshot(grid: grid, title: "Storefront").rendered(as: format).utf8).write(
                    to: URL(fileURLWithPath: path), options: .atomic)
                channel.send(.saved(path))
            } catch {
                channel.send(.notSaved(path: path, reason: error.localizedDescription))
            }
        }
    }
}

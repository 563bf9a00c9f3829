import CellGrid
import StorefrontUI
import Testing

/// Drives the reducer the way TCA's `TestStore` does: each `send` states the whole change an
/// action makes to the state and every effect it asks for. A change the test did not state, or an
/// effect it did not expect, fails with the fields that differ.
struct ReducerTestStore {
    private(set) var state: AppState

    init(_ state: AppState) {
        self.state = state
    }

    /// Reduces `action`; `change` turns the state before it into the state expected after it.
    mutating func send(
        _ action: Action, effects: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout AppState) -> Void = { _ in }
    ) {
        var expected = state
        change(&expected)
        let actual = Reducer.reduce(&state, action)
        #expect(actual == effects, "effects of \(action)", sourceLocation: sourceLocation)
        if state != expected {
            Issue.record(
                "state after \(action) differs from the expected:\n\(Self.difference(expected: expected, actual: state))",
                sourceLocation: sourceLocation)
        }
    }

    /// A key press: `send(.key(key))`.
    mutating func press(
        _ key: Key, effects: [Effect] = [], sourceLocation: SourceLocation = #_sourceLocation,
        _ change: (inout AppState) -> Void = { _ in }
    ) {
        send(.key(key), effects: effects, sourceLocation: sourceLocation, change)
    }

    /// Changes the state without an action, to arrange what a test starts from.
    mutating func arrange(_ change: (inout AppState) -> Void) {
        change(&state)
    }

    /// The top-level fields whose values differ, each as expected and as found.
    static func difference(expected: AppState, actual: AppState) -> String {
        zip(Mirror(reflecting: expected).children, Mirror(reflecting: actual).children).compactMap { want, got in
            let wanted = String(reflecting: want.value)
            let found = String(reflecting: got.value)
            guard wanted != found else { return nil }
            return "  \(want.label ?? "?"):\n    expected \(wanted)\n    actual   \(found)"
        }.joined(separator: "\n")
    }
}

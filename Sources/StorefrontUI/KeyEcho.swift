import CellGrid
import Foundation

/// For presenters: the keys pressed in the last few seconds, shown at the bottom right over
/// everything, so an audience sees what was typed ("↓ ↓ Enter").
public struct KeyEcho: Sendable, Hashable {
    /// How long a key stays shown.
    public static let seconds: TimeInterval = 3
    /// At most this many keys, the newest last.
    static let limit = 6

    public struct Pressed: Sendable, Hashable {
        public let name: String
        public let at: Date
    }

    public private(set) var keys: [Pressed] = []

    public init() {}

    mutating func press(_ key: Key, at date: Date, ascii: Bool) {
        guard key != .resize else { return }
        keys.append(Pressed(name: ascii ? key.asciiDescription : key.description, at: date))
        if keys.count > Self.limit { keys.removeFirst(keys.count - Self.limit) }
    }

    mutating func expire(at date: Date) {
        keys.removeAll { date.timeIntervalSince($0.at) >= Self.seconds }
    }

    /// " ↓ ↓ Enter ", or nil with nothing to show.
    var text: String? {
        keys.isEmpty ? nil : " " + keys.map(\.name).joined(separator: " ") + " "
    }
}

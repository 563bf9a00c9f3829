import CellGrid
import Foundation

/// For presenters: the keys pressed in the last few seconds, shown at the bottom right over
/// everything, so an audience sees what was typed ("↓ ↓ Enter").
public struct KeyEcho: Sendable, Hashable {
    /// How long a key stays shown.
    public static let seconds: TimeInterval = 3
    /// At most this many keys, the newest last.
    static let limit = 6

    public private(set) var keys: [(name: String, at: Date)] = []

    public init() {}

    mutating func press(_ key: Key, at date: Date, ascii: Bool) {
        guard key != .resize else { return }
        keys.append((ascii ? key.asciiDescription : key.description, date))
        if keys.count > Self.limit { keys.removeFirst(keys.count - Self.limit) }
    }

    mutating func expire(at date: Date) {
        keys.removeAll { date.timeIntervalSince($0.at) >= Self.seconds }
    }

    /// " ↓ ↓ Enter ", or nil with nothing to show.
    var text: String? {
        keys.isEmpty ? nil : " " + keys.map(\.name).joined(separator: " ") + " "
    }

    public static func == (lhs: KeyEcho, rhs: KeyEcho) -> Bool {
        lhs.keys.map(\.name) == rhs.keys.map(\.name) && lhs.keys.map(\.at) == rhs.keys.map(\.at)
    }

    public func hash(into hasher: inout Hasher) {
        for key in keys {
            hasher.combine(key.name)
            hasher.combine(key.at)
        }
    }
}

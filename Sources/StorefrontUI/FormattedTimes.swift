import CellGrid
import Foundation

/// Times of day already formatted, shared by every frame: formatting through ICU takes
/// microseconds, and the transaction pane shows the same purchase times frame after frame.
final class FormattedTimes: @unchecked Sendable {  // every access holds `lock`
    static let shared = FormattedTimes()
    static let limit = 1_024
    /// Wide enough for "12:59:00 PM" and the 24-hour forms.
    static let width = 11

    private struct Key: Hashable {
        let second: Int64
        let timeZone: String
        let locale: String
    }

    private let lock = NSLock()
    private var texts: [Key: String] = [:]

    func text(_ date: Date, timeZone: TimeZone, locale: String) -> String {
        let key = Key(
            second: Int64(date.timeIntervalSince1970.rounded(.down)), timeZone: timeZone.identifier, locale: locale)
        if let known = lock.withLock({ texts[key] }) { return known }
        let style = Date.FormatStyle(
            date: .omitted, time: .standard, locale: Locale(identifier: locale), timeZone: timeZone)
        // Never cut: a locale whose times are wider ("오후 12:59:00") shifts its row a little.
        let formatted = date.formatted(style)
        let text = CellWidth.pad(formatted, to: max(Self.width, CellWidth.of(formatted)))
        lock.withLock {
            if texts.count >= Self.limit { texts.removeAll(keepingCapacity: true) }
            texts[key] = text
        }
        return text
    }
}

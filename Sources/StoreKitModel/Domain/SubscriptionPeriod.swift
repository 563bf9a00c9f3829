/// An ISO 8601 duration of one unit, as App Store subscriptions use them (`P1W`, `P1M`, `P3M`, `P1Y`).
public struct SubscriptionPeriod: Sendable, Hashable, Codable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, Codable, CaseIterable {
        case day = "D"
        case week = "W"
        case month = "M"
        case year = "Y"
    }

    public let value: Int
    public let unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Parses `PnD`, `PnW`, `PnM`, `PnY` with 1 ≤ n ≤ 999; nil for anything else.
    public init?(iso8601 text: String) {
        // Byte by byte: a valid period is ASCII, where a byte is a character, and a catalog has
        // one per subscription and offer (counting characters cost more than the rest together).
        let utf8 = text.utf8
        guard (3...5).contains(utf8.count), utf8.first == UInt8(ascii: "P"), let last = utf8.last,
            let unit = Unit.allCases.first(where: { $0.rawValue.utf8.first == last })
        else { return nil }
        var value = 0
        for byte in utf8.dropFirst().dropLast() {
            guard (0x30...0x39).contains(byte) else { return nil }  // digits only: not "P+1M"
            value = value * 10 + Int(byte - 0x30)
        }
        guard value >= 1 else { return nil }  // at most three digits: at most 999
        self.init(value: value, unit: unit)
    }

    public var iso8601: String { "P\(value)\(unit.rawValue)" }
    public var description: String { iso8601 }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let period = SubscriptionPeriod(iso8601: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath,
                    debugDescription: "\"\(text)\" is not an ISO 8601 period such as P1M"))
        }
        self = period
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(iso8601)
    }

    /// "month", "3 months", "月", "3个月": the unit after a price's slash.
    public func unitLabel(in language: Language) -> String {
        switch language {
        case .english:
            let word =
                switch unit {
                case .day: "day"
                case .week: "week"
                case .month: "month"
                case .year: "year"
                }
            return value == 1 ? word : "\(value) \(word)s"
        case .simplifiedChinese:
            let word =
                switch unit {
                case .day: "天"
                case .week: "周"
                case .month: "个月"
                case .year: "年"
                }
            if value == 1 { return unit == .month ? "月" : word }
            return "\(value)\(word)"
        }
    }
}

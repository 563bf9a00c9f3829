import Foundation

/// Dates as the App Store's JSON carries them: whole milliseconds since 1970.
extension Date {
    public var epochMilliseconds: Int64 {
        Int64((timeIntervalSince1970 * 1000).rounded())
    }

    public init(epochMilliseconds: Int64) {
        self.init(timeIntervalSince1970: Double(epochMilliseconds) / 1000)
    }
}

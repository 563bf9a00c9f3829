import Foundation

extension SKTestSession {
    /// StoreKitTest's `SKTestSession.TimeRate`, with Apple's raw values: how fast subscriptions
    /// renew in the test environment.
    public struct TimeRate: RawRepresentable, Hashable, Sendable {
        public let rawValue: Int
        public init(rawValue: Int) { self.rawValue = rawValue }

        public static let realTime = TimeRate(rawValue: 0)
        public static let oneHourIsOneDay = TimeRate(rawValue: 1)
        public static let thirtyMinutesIsOneDay = TimeRate(rawValue: 2)
        public static let fiveMinutesIsOneDay = TimeRate(rawValue: 3)
        public static let oneMinuteIsOneDay = TimeRate(rawValue: 4)
        public static let thirtySecondsIsOneDay = TimeRate(rawValue: 5)
        public static let oneSecondIsOneDay = TimeRate(rawValue: 6)
        public static let monthlyRenewalEveryHour = TimeRate(rawValue: 10)
        public static let monthlyRenewalEveryThirtyMinutes = TimeRate(rawValue: 11)
        public static let monthlyRenewalEveryFifteenMinutes = TimeRate(rawValue: 12)
        public static let monthlyRenewalEveryFiveMinutes = TimeRate(rawValue: 13)
        public static let monthlyRenewalEveryThirtySeconds = TimeRate(rawValue: 15)
        public static let oneRenewalEveryFifteenMinutes = TimeRate(rawValue: 1000)
        public static let oneRenewalEveryFiveMinutes = TimeRate(rawValue: 1001)
        public static let oneRenewalEveryMinute = TimeRate(rawValue: 1002)
        public static let oneRenewalEveryThirtySeconds = TimeRate(rawValue: 1003)
        public static let oneRenewalEveryTenSeconds = TimeRate(rawValue: 1004)
        public static let oneRenewalEveryTwoSeconds = TimeRate(rawValue: 1005)
    }
}

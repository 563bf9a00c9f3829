/// Xcode's `SKTestSession.TimeRate`: how fast subscriptions renew in a test session. The raw
/// values are SKTestSession.h's, which `.storekit` files store in `settings._timeRate`.
public enum TimeRate: Int, CaseIterable, Sendable, Codable, Hashable {
    case realTime = 0
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEvery30Minutes = 11
    case monthlyRenewalEvery15Minutes = 12
    case monthlyRenewalEvery5Minutes = 13
    case monthlyRenewalEvery30Seconds = 15
    case oneRenewalEvery15Minutes = 1000
    case oneRenewalEvery5Minutes = 1001
    case oneRenewalEvery1Minute = 1002
    case oneRenewalEvery30Seconds = 1003
    case oneRenewalEvery10Seconds = 1004
    case oneRenewalEvery2Seconds = 1005
    // Deprecated since iOS 15.2 but still in SKTestSession.h, so older `.storekit` files hold
    // them. Declared last so the controls panel steps through the current rates first.
    case oneHourIsOneDay = 1
    case thirtyMinutesIsOneDay = 2
    case fiveMinutesIsOneDay = 3
    case oneMinuteIsOneDay = 4
    case thirtySecondsIsOneDay = 5
    case oneSecondIsOneDay = 6

    /// Short names for the command line (`2s`, `monthly-30s`, `1h-day`, `real`).
    public var token: String {
        switch self {
        case .realTime: "real"
        case .monthlyRenewalEveryHour: "monthly-1h"
        case .monthlyRenewalEvery30Minutes: "monthly-30m"
        case .monthlyRenewalEvery15Minutes: "monthly-15m"
        case .monthlyRenewalEvery5Minutes: "monthly-5m"
        case .monthlyRenewalEvery30Seconds: "monthly-30s"
        case .oneRenewalEvery15Minutes: "15m"
        case .oneRenewalEvery5Minutes: "5m"
        case .oneRenewalEvery1Minute: "1m"
        case .oneRenewalEvery30Seconds: "30s"
        case .oneRenewalEvery10Seconds: "10s"
        case .oneRenewalEvery2Seconds: "2s"
        case .oneHourIsOneDay: "1h-day"
        case .thirtyMinutesIsOneDay: "30m-day"
        case .fiveMinutesIsOneDay: "5m-day"
        case .oneMinuteIsOneDay: "1m-day"
        case .thirtySecondsIsOneDay: "30s-day"
        case .oneSecondIsOneDay: "1s-day"
        }
    }

    /// Apple deprecated the rates where a fixed time is one day (iOS 15.2).
    public var isDeprecated: Bool { (1...6).contains(rawValue) }

    /// Accepts a token (`2s`) or Xcode's raw value (`1005`).
    public init?(token: String) {
        if let raw = Int(token), let rate = TimeRate(rawValue: raw) {
            self = rate
        } else if let rate = TimeRate.allCases.first(where: { $0.token == token }) {
            self = rate
        } else {
            return nil
        }
    }

    /// A raw value as a store's saved controls hold it. Versions before Apple's values were
    /// checked saved monthly renewal every 30 seconds as 14, which Apple does not define; SKTestSession.h
    /// gives it 15, so a saved 14 still means that rate.
    public init?(storedRawValue raw: Int) {
        self.init(rawValue: raw == 14 ? TimeRate.monthlyRenewalEvery30Seconds.rawValue : raw)
    }

    /// Every raw value, for messages: "0–6, 10–13, 15, 1000–1005".
    public static let rawValuesInWords = "0–6, 10–13, 15, 1000–1005"
}

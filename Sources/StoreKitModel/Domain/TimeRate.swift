/// Xcode's `SKTestSession.timeRate`: how fast subscriptions renew in a test session.
public enum TimeRate: Int, CaseIterable, Sendable, Codable, Hashable {
    case realTime = 0
    case monthlyRenewalEveryHour = 10
    case monthlyRenewalEvery30Minutes = 11
    case monthlyRenewalEvery15Minutes = 12
    case monthlyRenewalEvery5Minutes = 13
    case monthlyRenewalEvery30Seconds = 14
    case oneRenewalEvery15Minutes = 1000
    case oneRenewalEvery5Minutes = 1001
    case oneRenewalEvery1Minute = 1002
    case oneRenewalEvery30Seconds = 1003
    case oneRenewalEvery10Seconds = 1004
    case oneRenewalEvery2Seconds = 1005

    /// Short names for the command line (`2s`, `monthly-30s`, `real`).
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
        }
    }

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

    /// Wall-clock seconds one subscription period of `period` lasts under this rate.
    public func seconds(for period: SubscriptionPeriod) -> Double {
        let realSeconds = Double(period.approximateDays) * 86_400
        switch self {
        case .realTime: return realSeconds
        case .monthlyRenewalEveryHour: return realSeconds / (30 * 86_400) * 3_600
        case .monthlyRenewalEvery30Minutes: return realSeconds / (30 * 86_400) * 1_800
        case .monthlyRenewalEvery15Minutes: return realSeconds / (30 * 86_400) * 900
        case .monthlyRenewalEvery5Minutes: return realSeconds / (30 * 86_400) * 300
        case .monthlyRenewalEvery30Seconds: return realSeconds / (30 * 86_400) * 30
        case .oneRenewalEvery15Minutes: return 900
        case .oneRenewalEvery5Minutes: return 300
        case .oneRenewalEvery1Minute: return 60
        case .oneRenewalEvery30Seconds: return 30
        case .oneRenewalEvery10Seconds: return 10
        case .oneRenewalEvery2Seconds: return 2
        }
    }
}

extension TimeRate {
    /// `days` of real time scaled as this rate scales `period`: a grace period or billing retry
    /// lasts as long, relative to the subscription's period, as in real time.
    public func seconds(days: Int, of period: SubscriptionPeriod) -> Double {
        seconds(for: period) * Double(days) / Double(period.approximateDays)
    }

    /// `hours` of real time scaled as this rate scales a month (Apple's notification retries).
    public func seconds(hours: Double) -> Double {
        let month = SubscriptionPeriod(value: 1, unit: .month)
        return seconds(for: month) * hours / (Double(month.approximateDays) * 24)
    }
}

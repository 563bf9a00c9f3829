import Foundation

extension TimeRate {
    /// How a rate turns the store's time into wall-clock time.
    enum Scale {
        /// The calendar in UTC, each of its days lasting `day` seconds: real time (86,400) and
        /// the deprecated rates where a fixed time is one day.
        case days(TimeInterval)
        /// A monthly rate, from Apple's table for it.
        case monthly(MonthlyRateTable)
        /// Every period, whatever its length, lasts `interval` ("one renewal every …").
        case fixed(TimeInterval)
    }

    var scale: Scale {
        switch self {
        case .realTime: .days(86_400)
        case .oneHourIsOneDay: .days(3_600)
        case .thirtyMinutesIsOneDay: .days(1_800)
        case .fiveMinutesIsOneDay: .days(300)
        case .oneMinuteIsOneDay: .days(60)
        case .thirtySecondsIsOneDay: .days(30)
        case .oneSecondIsOneDay: .days(1)
        case .monthlyRenewalEveryHour: .monthly(.everyHour)
        case .monthlyRenewalEvery30Minutes: .monthly(.every30Minutes)
        case .monthlyRenewalEvery15Minutes: .monthly(.every15Minutes)
        case .monthlyRenewalEvery5Minutes: .monthly(.every5Minutes)
        case .monthlyRenewalEvery30Seconds: .monthly(.every30Seconds)
        case .oneRenewalEvery15Minutes: .fixed(900)
        case .oneRenewalEvery5Minutes: .fixed(300)
        case .oneRenewalEvery1Minute: .fixed(60)
        case .oneRenewalEvery30Seconds: .fixed(30)
        case .oneRenewalEvery10Seconds: .fixed(10)
        case .oneRenewalEvery2Seconds: .fixed(2)
        }
    }
}

/// One monthly rate as Apple's page for its `SKTestSession.TimeRate` case gives it, in seconds.
/// Months scale linearly (2 months last twice a month, a year twelve times); a week does not.
struct MonthlyRateTable: Sendable, Hashable {
    let week: TimeInterval
    let month: TimeInterval
    /// The grace period of a weekly subscription: 6 days of 7, rounded to the second.
    let weeklyGrace: TimeInterval
    /// The grace period of every other duration: half a month.
    let grace: TimeInterval
    /// Billing retry: two months.
    let billingRetry: TimeInterval

    static let everyHour = MonthlyRateTable(
        week: 15 * 60, month: 3_600, weeklyGrace: 12 * 60 + 51, grace: 30 * 60, billingRetry: 2 * 3_600)
    static let every30Minutes = MonthlyRateTable(
        week: 10 * 60, month: 30 * 60, weeklyGrace: 8 * 60 + 34, grace: 15 * 60, billingRetry: 3_600)
    static let every15Minutes = MonthlyRateTable(
        week: 5 * 60, month: 15 * 60, weeklyGrace: 4 * 60 + 17, grace: 7 * 60 + 30, billingRetry: 30 * 60)
    // Apple's table gives the weekly grace period as longer than the others' here.
    static let every5Minutes = MonthlyRateTable(
        week: 3 * 60, month: 5 * 60, weeklyGrace: 2 * 60 + 34, grace: 2 * 60 + 30, billingRetry: 10 * 60)
    static let every30Seconds = MonthlyRateTable(
        week: 10, month: 30, weeklyGrace: 9, grace: 15, billingRetry: 60)
}

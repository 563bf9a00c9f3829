import Foundation
import StoreKitModel
import Testing

/// Every `SKTestSession.TimeRate` as Apple's page for the case gives it: how long each period,
/// the grace period and billing retry last, and the calendar in real time.
@Suite struct TimeRateTests {
    static let minute: TimeInterval = 60
    static let hour: TimeInterval = 3_600
    static let day: TimeInterval = 86_400

    /// 15 January 2027, 08:00 UTC: 31 days to 15 February, 59 to 15 March, 90 to 15 April,
    /// 181 to 15 July and 365 to the next 15 January.
    static let start = Date(timeIntervalSince1970: 1_800_000_000)
    static let calendarDays: [Double] = [7, 31, 59, 90, 181, 365]

    static let periods = ["P1W", "P1M", "P2M", "P3M", "P6M", "P1Y"].map { SubscriptionPeriod(iso8601: $0)! }

    /// Weekly, monthly, 2, 3 and 6 months, yearly: Apple's tables.
    static let table: [(TimeRate, [TimeInterval])] = [
        (.monthlyRenewalEveryHour, [15 * minute, hour, 2 * hour, 3 * hour, 6 * hour, 12 * hour]),
        (.monthlyRenewalEvery30Minutes, [10 * minute, 30 * minute, hour, 90 * minute, 3 * hour, 6 * hour]),
        (.monthlyRenewalEvery15Minutes, [5 * minute, 15 * minute, 30 * minute, 45 * minute, 90 * minute, 3 * hour]),
        (.monthlyRenewalEvery5Minutes, [3 * minute, 5 * minute, 10 * minute, 15 * minute, 30 * minute, hour]),
        (.monthlyRenewalEvery30Seconds, [10, 30, minute, 90, 3 * minute, 6 * minute]),
        (.oneRenewalEvery15Minutes, Array(repeating: 15 * minute, count: 6)),
        (.oneRenewalEvery5Minutes, Array(repeating: 5 * minute, count: 6)),
        (.oneRenewalEvery1Minute, Array(repeating: minute, count: 6)),
        (.oneRenewalEvery30Seconds, Array(repeating: 30, count: 6)),
        (.oneRenewalEvery10Seconds, Array(repeating: 10, count: 6)),
        (.oneRenewalEvery2Seconds, Array(repeating: 2, count: 6)),
        (.realTime, calendarDays.map { $0 * day }),
        (.oneHourIsOneDay, calendarDays.map { $0 * hour }),
        (.thirtyMinutesIsOneDay, calendarDays.map { $0 * 30 * minute }),
        (.fiveMinutesIsOneDay, calendarDays.map { $0 * 5 * minute }),
        (.oneMinuteIsOneDay, calendarDays.map { $0 * minute }),
        (.thirtySecondsIsOneDay, calendarDays.map { $0 * 30 }),
        (.oneSecondIsOneDay, calendarDays),
    ]

    /// Grace period for a weekly subscription, for the others, and billing retry.
    static let billing: [(TimeRate, TimeInterval, TimeInterval, TimeInterval)] = [
        (.realTime, 6 * day, 16 * day, 60 * day),
        (.monthlyRenewalEveryHour, 12 * minute + 51, 30 * minute, 2 * hour),
        (.monthlyRenewalEvery30Minutes, 8 * minute + 34, 15 * minute, hour),
        (.monthlyRenewalEvery15Minutes, 4 * minute + 17, 7 * minute + 30, 30 * minute),
        (.monthlyRenewalEvery5Minutes, 2 * minute + 34, 2 * minute + 30, 10 * minute),
        (.monthlyRenewalEvery30Seconds, 9, 15, minute),
        (.oneRenewalEvery15Minutes, 15 * minute, 15 * minute, 30 * minute),
        (.oneRenewalEvery5Minutes, 5 * minute, 5 * minute, 10 * minute),
        (.oneRenewalEvery1Minute, minute, minute, 2 * minute),
        (.oneRenewalEvery30Seconds, 30, 30, minute),
        (.oneRenewalEvery10Seconds, 10, 10, 20),
        (.oneRenewalEvery2Seconds, 2, 2, 4),
        (.oneHourIsOneDay, 6 * hour, 16 * hour, 60 * hour),
        (.oneSecondIsOneDay, 6, 16, 60),
    ]

    static func date(_ text: String) -> Date {
        try! Date(text + "T08:00:00Z", strategy: .iso8601)
    }

    @Test func everyRateCoversEveryCase() {
        #expect(Set(Self.table.map(\.0)) == Set(TimeRate.allCases))
    }

    @Test(arguments: table)
    func eachPeriodLastsAsApplesTableSays(rate: TimeRate, durations: [TimeInterval]) {
        for (period, duration) in zip(Self.periods, durations) {
            #expect(
                rate.end(of: period, from: Self.start).timeIntervalSince(Self.start) == duration,
                "\(rate.token) \(period)")
        }
    }

    @Test(arguments: billing)
    func graceAndBillingRetryLastAsApplesTableSays(
        rate: TimeRate, weeklyGrace: TimeInterval, grace: TimeInterval, retry: TimeInterval
    ) {
        #expect(rate.gracePeriod(for: SubscriptionPeriod(value: 1, unit: .week)) == weeklyGrace)
        for period in Self.periods.dropFirst() { #expect(rate.gracePeriod(for: period) == grace, "\(period)") }
        #expect(rate.billingRetryPeriod == retry)
    }

    @Test func aMonthFromTheLastDayOfAMonthEndsOnTheLastDayOfFebruary() {
        let month = SubscriptionPeriod(value: 1, unit: .month)
        #expect(TimeRate.realTime.end(of: month, from: Self.date("2027-01-31")) == Self.date("2027-02-28"))
        #expect(TimeRate.realTime.end(of: month, from: Self.date("2028-01-31")) == Self.date("2028-02-29"))
        // Three months at once from the 31st, as an offer of three periods: the 30th of April.
        #expect(TimeRate.realTime.end(of: month, periods: 3, from: Self.date("2027-01-31")) == Self.date("2027-04-30"))
        // The deprecated rates count the calendar's days: 28 "days" of one second.
        #expect(
            TimeRate.oneSecondIsOneDay.end(of: month, from: Self.date("2027-01-31")) == Self.date("2027-01-31") + 28)
    }

    @Test func aYearFromTheTwentyNinthOfFebruaryEndsOnTheTwentyEighth() {
        let year = SubscriptionPeriod(value: 1, unit: .year)
        #expect(TimeRate.realTime.end(of: year, from: Self.date("2028-02-29")) == Self.date("2029-02-28"))
    }

    @Test func threeMonthsFromTheTwentySixthOfNovemberEndOnTheTwentySixthOfFebruary() {
        let quarter = SubscriptionPeriod(value: 3, unit: .month)
        #expect(TimeRate.realTime.end(of: quarter, from: Self.date("2026-11-26")) == Self.date("2027-02-26"))
    }

    @Test func daysAndOffersOfSeveralPeriodsScaleWithTheRate() {
        let threeDays = SubscriptionPeriod(value: 3, unit: .day)
        #expect(TimeRate.realTime.end(of: threeDays, from: Self.start) == Self.start + 3 * Self.day)
        #expect(TimeRate.monthlyRenewalEvery5Minutes.end(of: threeDays, from: Self.start) == Self.start + 30)
        #expect(TimeRate.oneRenewalEvery2Seconds.end(of: threeDays, periods: 2, from: Self.start) == Self.start + 4)
        #expect(TimeRate.fiveMinutesIsOneDay.end(of: threeDays, from: Self.start) == Self.start + 15 * Self.minute)
    }

    @Test func anAskToBuyRequestHasADayOfStoreTime() {
        #expect(TimeRate.realTime.askToBuyWindow == Self.day)
        #expect(TimeRate.oneMinuteIsOneDay.askToBuyWindow == Self.minute)
        #expect(TimeRate.monthlyRenewalEveryHour.askToBuyWindow == 2 * Self.minute)
        #expect(TimeRate.monthlyRenewalEvery30Seconds.askToBuyWindow == 1)
        #expect(TimeRate.oneRenewalEvery10Seconds.askToBuyWindow == 10, "one interval at the fixed rates")
    }

    @Test func notificationRetriesScaleByAMonth() {
        #expect(TimeRate.realTime.seconds(hours: 12) == 12 * Self.hour)
        #expect(TimeRate.monthlyRenewalEveryHour.seconds(hours: 720) == Self.hour)
        #expect(TimeRate.oneRenewalEvery2Seconds.seconds(hours: 72) == 0.2)
        #expect(TimeRate.oneHourIsOneDay.seconds(hours: 24) == Self.hour)
    }

    @Test func rawValuesAreSKTestSessionHs() {
        #expect(TimeRate.monthlyRenewalEvery30Seconds.rawValue == 15)
        #expect(TimeRate(rawValue: 14) == nil)
        let deprecated = (1...6).compactMap(TimeRate.init(rawValue:))
        #expect(deprecated.count == 6 && deprecated.allSatisfy { $0.isDeprecated })
        #expect(TimeRate.allCases.map(\.rawValue).sorted() == Array(0...6) + [10, 11, 12, 13, 15] + Array(1000...1005))
        #expect(TimeRate(token: "15") == .monthlyRenewalEvery30Seconds)
        #expect(TimeRate(token: "14") == nil)
        #expect(TimeRate(token: "1s-day") == .oneSecondIsOneDay)
        #expect(Set(TimeRate.allCases.map(\.token)).count == TimeRate.allCases.count)
    }

    @Test func aFourteenSavedByAnOlderVersionIsMonthlyRenewalEveryThirtySeconds() {
        #expect(TimeRate(storedRawValue: 14) == .monthlyRenewalEvery30Seconds)
        #expect(TimeRate(storedRawValue: 15) == .monthlyRenewalEvery30Seconds)
        #expect(TimeRate(storedRawValue: 3) == .fiveMinutesIsOneDay)
        #expect(TimeRate(storedRawValue: 7) == nil)
    }
}

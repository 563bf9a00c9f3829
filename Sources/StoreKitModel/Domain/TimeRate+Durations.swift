import Foundation

/// How long things last under each rate, as Apple's page for each `SKTestSession.TimeRate` case
/// gives it: subscription periods, the billing grace period and billing retry. In real time a
/// period ends by the calendar (a month from 31 January ends on the last day of February).
extension TimeRate {
    /// When `count` periods of `period` that start at `start` end.
    public func end(of period: SubscriptionPeriod, periods count: Int = 1, from start: Date) -> Date {
        switch scale {
        case .days(let day):
            let calendarEnd = Self.calendarEnd(of: period, periods: count, from: start)
            guard day != 86_400 else { return calendarEnd }
            // The calendar's days from the start, each lasting `day`: a month from 31 January is 28 or 29.
            let days = (calendarEnd.timeIntervalSince(start) / 86_400).rounded()
            return start.addingTimeInterval(days * day)
        case .monthly(let table):
            return start.addingTimeInterval(table.duration(of: period) * Double(count))
        case .fixed(let interval):
            return start.addingTimeInterval(interval * Double(count))
        }
    }

    /// The billing grace period of a subscription of `period`: in real time 6 days for a weekly
    /// one and 16 for every other duration; one interval at the fixed rates.
    public func gracePeriod(for period: SubscriptionPeriod) -> TimeInterval {
        let weekly = period.unit == .week && period.value == 1
        switch scale {
        case .days(let day): return (weekly ? 6 : 16) * day
        case .monthly(let table): return weekly ? table.weeklyGrace : table.grace
        case .fixed(let interval): return interval
        }
    }

    /// How long billing retry goes on before the subscription ends: 60 days in real time, two
    /// intervals at the fixed rates.
    public var billingRetryPeriod: TimeInterval {
        switch scale {
        case .days(let day): 60 * day
        case .monthly(let table): table.billingRetry
        case .fixed(let interval): 2 * interval
        }
    }

    /// How long billing retry goes on for a monthly plan with a 12-month commitment: 90 days in
    /// real time, half as long again as `billingRetryPeriod` at every accelerated rate.
    public var commitmentBillingRetryPeriod: TimeInterval {
        switch scale {
        case .days(let day): 90 * day
        case .monthly(let table): table.billingRetry * 3 / 2
        case .fixed(let interval): 3 * interval
        }
    }

    /// How long a parent has to answer an Ask to Buy request: 24 hours of store time, one day
    /// of the calendar (a 30th of a month at the monthly rates). The fixed rates have no day, and
    /// a 30th of a two-second month is gone before anyone could answer; there it is one interval,
    /// as the grace period is.
    public var askToBuyWindow: TimeInterval {
        switch scale {
        case .days(let day): day
        case .monthly(let table): table.month / 30
        case .fixed(let interval): interval
        }
    }

    /// `hours` of real time scaled as this rate scales a month (Apple's notification retries);
    /// a month lasts one interval at the fixed rates.
    public func seconds(hours: Double) -> TimeInterval {
        switch scale {
        case .days(let day): hours * day / 24
        case .monthly(let table): hours * table.month / 720
        case .fixed(let interval): hours * interval / 720
        }
    }

    /// The Gregorian calendar in UTC, in which the App Store counts periods.
    static let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        return calendar
    }()

    static func calendarEnd(of period: SubscriptionPeriod, periods count: Int, from start: Date) -> Date {
        let units = period.value * count
        let components =
            switch period.unit {
            case .day: DateComponents(day: units)
            case .week: DateComponents(day: 7 * units)
            case .month: DateComponents(month: units)
            case .year: DateComponents(year: units)
            }
        // Past the calendar's range the period never ends.
        return calendar.date(byAdding: components, to: start) ?? .distantFuture
    }
}

extension MonthlyRateTable {
    /// A period's length. Apple's tables give weeks, months and years but no day (offers last
    /// days); a day is a 30th of a month here, as the Ask to Buy window is.
    func duration(of period: SubscriptionPeriod) -> TimeInterval {
        let count = Double(period.value)
        switch period.unit {
        case .day: return count * month / 30
        case .week: return count * week
        case .month: return count * month
        case .year: return count * 12 * month
        }
    }
}

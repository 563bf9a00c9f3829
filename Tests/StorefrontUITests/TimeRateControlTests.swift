import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The time-rate row offers Apple's deprecated rates too, and says they are; an Ask to Buy
/// request that expired says so in the manager alone.
@Suite struct TimeRateControlTests {
    typealias F = UIFixture

    @Test func theDeprecatedRatesAreOfferedAfterTheOthersAndSaySo() {
        #expect(ControlRow.timeRate.step(TestControls(), by: -1)?.timeRate == .oneSecondIsOneDay)
        #expect(ControlRow.timeRate.step(TestControls(), by: 1)?.timeRate == .monthlyRenewalEveryHour)
        var state = F.state()
        state.controls.timeRate = .oneHourIsOneDay
        #expect(ControlRow.timeRate.value(state) == "1h-day: 1 h is a day (deprecated)")
        state.language = .simplifiedChinese
        #expect(ControlRow.timeRate.value(state) == "1h-day：1 小时为一天（已弃用）")
        state.language = .english
        // Each rate says what it does beside the name `manage set time-rate` takes.
        state.controls.timeRate = .monthlyRenewalEvery30Seconds
        #expect(ControlRow.timeRate.value(state) == "monthly-30s: a month lasts 30 s")
        state.controls.timeRate = .oneRenewalEvery15Minutes
        #expect(ControlRow.timeRate.value(state) == "15m: every period lasts 15 min")
    }

    /// Apple sends the app nothing for a request nobody answered: the manager says what the store
    /// did, and the app's list still waits for a parent.
    @Test func anExpiredAskToBuyRequestIsTheStoresSideAndTheAppStillWaits() {
        var state = F.state(account: "kid")
        var expired = F.transaction("2000000000000010", F.removeAds, .deferred, account: "kid")
        expired.failureContext = .askToBuyExpired
        state.history = [expired]
        let strings = UIStrings(.english)
        let row = Sheets.managerRow(expired, .queue(.deferred), state, strings, selected: false)
        #expect(row.text.contains("deferred"), "\(row.text)")
        #expect(row.text.contains("store: request expired; the app still waits"), "\(row.text)")
        #expect(Presentation.appFailureContext(expired) == nil)
        let text = Golden.text(state)
        #expect(text.contains("waiting for a parent · not charged") && !text.contains("expired"), "\(text)")
    }
}

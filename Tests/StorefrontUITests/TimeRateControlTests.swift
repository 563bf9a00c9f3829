import StoreCore
import StoreKitModel
import Testing

@testable import StorefrontUI

/// The time-rate row offers Apple's deprecated rates too, and says they are; an Ask to Buy
/// request that expired says so.
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

    @Test func anExpiredAskToBuyRequestSaysNobodyAnsweredIt() {
        var state = F.state(account: "kid")
        var expired = F.transaction(
            "2000000000000010", F.removeAds, .failed, error: .storeKit(.paymentCancelled), account: "kid")
        expired.failureContext = .askToBuyExpired
        _ = Reducer.reduce(&state, .transactionUpdate(TransactionUpdate(transaction: expired, receipt: nil)))
        #expect(state.status?.text == "Nobody answered the Ask to Buy request for Remove Ads in time; ask again.")
        #expect(state.status?.level == .warning)
    }
}

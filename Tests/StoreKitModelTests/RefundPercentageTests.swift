import StoreKitModel
import Testing

/// A prorated refund's share is read as the command line and `/admin` spell it and kept in
/// Apple's thousandths of a percent.
@Suite struct RefundPercentageTests {
    @Test func aShareIsReadInThousandthsOfAPercent() {
        #expect(RefundPercentage(text: "25")?.milliunits == 25_000)
        #expect(RefundPercentage(text: "25.5")?.milliunits == 25_500)
        #expect(RefundPercentage(text: "67.932")?.milliunits == 67_932)
        #expect(RefundPercentage(text: "0.015")?.milliunits == 15)
        #expect(RefundPercentage(text: "99.999")?.milliunits == 99_999)
        #expect(RefundPercentage(text: "25.5")?.text == "25.5")
        #expect(RefundPercentage(text: "0.015")?.text == "0.015")
        #expect(RefundPercentage(text: "40.000")?.text == "40")
    }

    @Test func whatIsNotAShareIsRefused() {
        for text in [
            "", "0", "0.000", "100", "100.0", "-5", "25.1234", "25.", ".5", "1e1", "２５", "abc", "25,5", "99999999",
        ] {
            #expect(RefundPercentage(text: text) == nil, "\(text)")
        }
        #expect(RefundPercentage(milliunits: 0) == nil)
        #expect(RefundPercentage(milliunits: 100_000) == nil)
    }
}

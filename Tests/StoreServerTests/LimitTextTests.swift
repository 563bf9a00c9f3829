import StoreServer
import Testing

/// The limits' flag values are read strictly: a timeout is plain seconds; what is printed reads
/// back as the same value.
@Suite struct LimitTextTests {
    @Test func secondsArePlainDecimals() {
        #expect(LimitText.seconds("30") == .seconds(30))
        #expect(LimitText.seconds("0.5") == .milliseconds(500))
        #expect(LimitText.seconds(".25") == .milliseconds(250))
        for text in ["", "-1", "+1", "1e3", "nan", "inf", "30s", "1,5", "."] {
            #expect(LimitText.seconds(text) == nil, "\(text)")
        }
        #expect(LimitText.seconds(of: .seconds(75)) == "75")
        #expect(LimitText.seconds(of: .milliseconds(500)) == "0.5")
        #expect(LimitText.describe(.seconds(30)) == "30 s")
    }
}

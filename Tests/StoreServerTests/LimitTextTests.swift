import StoreServer
import Testing

/// The limits' flag values are read strictly: a size needs a binary unit spelled out, a timeout
/// plain seconds; what is printed reads back as the same value.
@Suite struct LimitTextTests {
    @Test func sizesAreBytesOrBinaryUnits() {
        let sizes: [(String, Int)] = [
            ("5242880", 5_242_880), ("5242880B", 5_242_880), ("512KiB", 512 * 1024),
            ("32MiB", 32 << 20), (" 5MiB ", 5 << 20), ("1GiB", 1 << 30), ("0", 0),
        ]
        for (text, bytes) in sizes {
            #expect(LimitText.bytes(text) == bytes, "\(text)")
        }
    }

    @Test func ambiguousOrMalformedSizesAreRefused() {
        for text in [
            "", "MiB", "5MB", "5mib", "5 M", "lots", "-1", "+5", "1.5MiB", "5MiB5", "٥MiB", "99999999999999GiB", "1e6",
        ] {
            #expect(LimitText.bytes(text) == nil, "\(text)")
        }
    }

    @Test func aPrintedSizeReadsBackTheSame() {
        for bytes in [32 << 20, 5 << 20, 1536 * 1024, 1 << 30, 1000, 1, 3 << 30] {
            #expect(LimitText.bytes(LimitText.describe(bytes: bytes)) == bytes, "\(bytes)")
        }
        #expect(LimitText.describe(bytes: 32 << 20) == "32MiB")
        #expect(LimitText.describe(bytes: 1536 * 1024) == "1536KiB")
        #expect(LimitText.describe(bytes: 1000) == "1000B")
    }

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

import Foundation
import Testing
import StoreKitModel

@Test func zzProbeTiming() throws {
    let clock = ContinuousClock()
    for n in [2_000, 4_000, 8_000, 16_000] {
        let item = #"{"id": "com.example.p", "title": {"en": "Gems", "zh-Hans": "宝石"}, "prices": {"USA": "0.99", "JPN": "160"}}"#
        let text = "[\n" + Array(repeating: item, count: n).joined(separator: ",\n") + "\n]"
        let bytes = Array(text.utf8)
        let t = clock.measure { _ = try? JSONParser.parse(bytes) }
        print("PROBE n=\(n) bytes=\(bytes.count) parse", t)
    }
}

import Foundation
import JSONReading
import SyntheticData
import Testing

@testable import StoreKitModel

/// The scan that reads a string's UTF-8 also tells plain text apart (`PlainText`), so the check
/// for unprintable characters can pass it by: it must judge UTF-8 exactly as the standard
/// library does, and never call text plain that holds an unprintable character.
@Suite struct PlainTextTests {
    static func scan(_ bytes: [UInt8]) -> Bool? {
        bytes.withUnsafeBufferPointer(PlainText.scanUTF8)
    }

    @Test func everyScalarCalledPlainIsPrintable() {
        var wrong: [String] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            switch Self.scan(Array(String(scalar).utf8)) {
            case nil: wrong.append("U+\(String(value, radix: 16)) refused")
            case false? where UnprintableScan.isUnprintable(scalar): wrong.append("U+\(String(value, radix: 16)) plain")
            default: break
            }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Random bytes, mostly near the edges of UTF-8's ranges: valid exactly where the standard
    /// library's validation says so.
    @Test func invalidUTF8IsRefusedAsTheStandardLibraryRefusesIt() {
        var random = SplitMix64(state: 11)
        let edges: [UInt8] = [
            0x00, 0x1F, 0x20, 0x7E, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF, 0xE0, 0xE1,
            0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
        ]
        var wrong: [[UInt8]] = []
        for _ in 0..<200_000 {
            let bytes = (0..<Int.random(in: 1...6, using: &random)).map { _ in
                Bool.random(using: &random)
                    ? edges.randomElement(using: &random)! : UInt8.random(in: 0...255, using: &random)
            }
            let valid = bytes.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) } != nil
            if (Self.scan(bytes) != nil) != valid { wrong.append(bytes) }
        }
        #expect(wrong.isEmpty, "\(wrong.prefix(10))")
    }

    /// Through the parser: plain text is text with no escape and no suspect byte; the rest is not.
    @Test(arguments: [
        ("\"Gem Pack\"", true), ("\"冰霜猎鹰通行证（季度）\"", true), ("\"a\\nb\"", false), ("\"x\u{7F}\"", false),
        ("\"Remove \u{202E}Ads\"", false), ("\"soft\u{AD}hyphen\"", false), ("\"—dash\"", false),
    ])
    func stringsAreCalledPlainWhenNothingCanHideInThem(_ literal: String, _ plain: Bool) throws {
        let bytes = Array(literal.utf8)
        let scanned = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var cursor = Cursor(bytes: buffer)
            return try cursor.scannedString()
        }
        #expect(scanned.plain == plain)
    }
}

/// Text no unprintable character can hide in, told apart while a string is scanned: the scan that
/// checks a string's UTF-8 also looks at each character's first byte, so a catalog's check for
/// unprintable characters (`UnprintableScan`) need not walk the text again where none can be.
package enum PlainText {
    /// Whether the character that starts with `byte` (`next` after it, 0 at the end) may be
    /// unprintable: bytes below 0x20 and 0x7F are C0 controls and DEL; 0xC2 leads the C1 controls
    /// and U+00AD, 0xE2 0x80 and 0xE2 0x81 U+2000…U+207F (the zero-width, bidirectional and
    /// separator characters; the rest of U+2000…U+2FFF has none), 0xEF 0xBB U+FEFF and 0xEF 0xBF
    /// U+FFF9…U+FFFB (the rest of U+F000…U+FFFF, such as the full-width punctuation of Chinese
    /// text, has none), and the others lead the remaining format characters (Arabic, Syriac,
    /// Mongolian, and beyond U+FFFF).
    package static func mayStartUnprintable(_ byte: UInt8, next: UInt8) -> Bool {
        switch byte {
        case 0x00..<0x20, 0x7F: return true
        case 0xC0...: break
        default: return false
        }
        guard suspectLeads >> (byte & 0x3F) & 1 != 0 else { return false }
        switch byte {
        case 0xE2: return next < 0x82
        case 0xEF: return next == 0xBB || next == 0xBF
        default: return true
        }
    }

    /// The lead bytes 0xC0…0xFF `mayStartUnprintable` looks at more closely, one bit each (0xC2,
    /// 0xD8, 0xDB, 0xDC, 0xE0, 0xE1, 0xE2, 0xEF, 0xF0, 0xF3): most bytes of text in other scripts
    /// are continuation bytes or lead bytes of no interest.
    private static var suspectLeads: UInt64 { 0x0009_8007_1900_0004 }

    /// Nil when `run` is not UTF-8 as `UTF8Span(validating:)` judges it (RFC 3629: no overlong
    /// form, no surrogate, nothing past U+10FFFF); else whether a character of it may be
    /// unprintable (`mayStartUnprintable`). One pass does both, character by character.
    package static func scanUTF8(_ run: UnsafeBufferPointer<UInt8>) -> Bool? {
        var suspect = false
        var index = 0
        let count = run.count
        while index < count {
            let lead = run[index]
            if lead < 0x80 {
                suspect = suspect || lead < 0x20 || lead == 0x7F
                index += 1
                continue
            }
            let next = index + 1 < count ? run[index + 1] : 0
            guard let length = sequenceLength(lead, next: next), index + length <= count else { return nil }
            for offset in 2..<max(length, 2) where run[index + offset] & 0xC0 != 0x80 { return nil }
            suspect = suspect || mayStartUnprintable(lead, next: next)
            index += length
        }
        return suspect
    }

    /// How many bytes the character that starts with `lead` (not ASCII) has, when `next`, its
    /// second byte, is one that may follow it; nil otherwise.
    private static func sequenceLength(_ lead: UInt8, next: UInt8) -> Int? {
        let (length, low, high): (Int, UInt8, UInt8) =
            switch lead {
            case 0xC2...0xDF: (2, 0x80, 0xBF)
            case 0xE0: (3, 0xA0, 0xBF)
            case 0xED: (3, 0x80, 0x9F)
            case 0xE1...0xEF: (3, 0x80, 0xBF)
            case 0xF0: (4, 0x90, 0xBF)
            case 0xF4: (4, 0x80, 0x8F)
            case 0xF1...0xF3: (4, 0x80, 0xBF)
            default: (0, 1, 0)
            }
        return next >= low && next <= high ? length : nil
    }
}

/// Eight bytes of text read as one word, so a scan passes over plain runs eight bytes at a time.
/// Each test sets the high bit of the word's bytes that match (at least of the first one: the bit
/// tricks for "has a zero byte" and "has a byte less than" never miss a match, and may mark a byte
/// after it), so a test is "found" when its result is not zero.
package enum ByteWord {
    private static let ones: UInt64 = 0x0101_0101_0101_0101
    private static let high: UInt64 = 0x8080_8080_8080_8080

    /// Bytes equal to `byte`.
    package static func equal(to byte: UInt8, in word: UInt64) -> UInt64 {
        let differences = word ^ (ones &* UInt64(byte))
        return (differences &- ones) & ~differences & high
    }

    /// Bytes below `limit`, which is at most 0x80.
    package static func below(_ limit: UInt8, in word: UInt64) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & high
    }

    /// Bytes that are not ASCII.
    package static func nonASCII(in word: UInt64) -> UInt64 { word & high }
}

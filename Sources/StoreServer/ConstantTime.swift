import Crypto
import Foundation

/// Comparing secrets (the admin token, verifyReceipt's shared secret) without a timing side channel.
///
/// A plain `==` stops at the first differing byte, so its time tells an attacker how much of a
/// guess is right, and it returns at once when the lengths differ. Here both strings are hashed to
/// 32-byte SHA-256 digests first (so the length of the secret does not matter either), and every
/// byte of the digests is XORed into one accumulator: the loop always runs 32 times and has no
/// branch on the data. The hashing depends only on the lengths, which are the attacker's own.
public enum ConstantTime {
    public static func equal(_ given: String, _ secret: String) -> Bool {
        let a = SHA256.hash(data: Data(given.utf8)).withUnsafeBytes { Array($0) }
        let b = SHA256.hash(data: Data(secret.utf8)).withUnsafeBytes { Array($0) }
        return equalDigests(a, b)
    }

    /// XOR-accumulates two byte arrays of the same length; false for different lengths.
    static func equalDigests(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for index in a.indices {
            difference |= a[index] ^ b[index]
        }
        return difference == 0
    }
}

import Crypto
import Foundation

/// Comparing secrets (the admin token, verifyReceipt's shared secret) without a timing side channel.
///
/// A plain `==` stops at the first differing byte, so its time tells an attacker how much of a
/// guess is right, and it returns at once when the lengths differ. Here both strings are hashed to
/// 32-byte SHA-256 digests first (so the length of the secret does not matter either), and the
/// digests are compared with swift-crypto's `Digest ==`, which is constant-time (`safeCompare`).
/// The hashing depends only on the lengths, which are the attacker's own.
public enum ConstantTime {
    public static func equal(_ given: String, _ secret: String) -> Bool {
        SHA256.hash(data: Data(given.utf8)) == SHA256.hash(data: Data(secret.utf8))
    }
}

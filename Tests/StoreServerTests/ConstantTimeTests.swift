import Foundation
import LocalState
import StoreCore
import StoreServer
import Testing

/// The comparison behind the admin token and verifyReceipt's shared secret.
@Suite struct ConstantTimeTests {
    @Test func equalOnlyForTheSameString() {
        let secret = "test-admin-token-0123456789"
        #expect(ConstantTime.equal(secret, secret))
        #expect(ConstantTime.equal("", ""))
        #expect(ConstantTime.equal("é", "é"))
        for other in ["", "t", secret + "x", String(secret.dropLast()), "x" + secret.dropFirst(), String(secret.dropLast()) + "0",
                      secret.uppercased(), " " + secret, secret + "\u{0}", "e\u{301}"] {
            #expect(!ConstantTime.equal(other, secret), "\(other.debugDescription)")
        }
        #expect(!ConstantTime.equal("é", "e\u{301}"))  // bytes, not canonical equivalence
    }

    /// Where the first difference is does not change the time: with a plain `==` a guess wrong in
    /// its first byte of a 4 MiB secret returns thousands of times sooner than one wrong in its last.
    /// The two guesses are timed in turn (so load from other tests hits both alike) and the fastest
    /// run of each is compared, with a wide margin, so a loaded machine does not make it flaky.
    @Test func timeDoesNotDependOnWhereTheFirstDifferenceIs() throws {
        let size = 4 * 1024 * 1024
        let secret = String(repeating: "a", count: size)
        let wrongFirst = "b" + String(repeating: "a", count: size - 1)
        let wrongLast = String(repeating: "a", count: size - 1) + "b"
        let clock = ContinuousClock()
        var first: [Duration] = []
        var last: [Duration] = []
        for _ in 0..<21 {
            first.append(clock.measure { _ = ConstantTime.equal(wrongFirst, secret) })
            last.append(clock.measure { _ = ConstantTime.equal(wrongLast, secret) })
        }
        let fastestFirst = try #require(first.min())
        let fastestLast = try #require(last.min())
        let ratio = fastestFirst / fastestLast
        #expect(ratio > 0.25 && ratio < 4, "fastest with the first byte wrong: \(fastestFirst), with the last: \(fastestLast)")
    }
}

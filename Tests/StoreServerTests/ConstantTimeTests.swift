import Foundation
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
    /// its first byte of a 4 MiB secret returns hundreds of times sooner than one wrong in its last.
    /// Medians of many runs, with a wide margin, so a loaded machine does not make it flaky.
    @Test func timeDoesNotDependOnWhereTheFirstDifferenceIs() {
        let size = 4 * 1024 * 1024
        let secret = String(repeating: "a", count: size)
        let wrongFirst = "b" + String(repeating: "a", count: size - 1)
        let wrongLast = String(repeating: "a", count: size - 1) + "b"
        func median(_ guess: String) -> Duration {
            let clock = ContinuousClock()
            var times: [Duration] = []
            for _ in 0..<15 {
                times.append(clock.measure { _ = ConstantTime.equal(guess, secret) })
            }
            return times.sorted()[times.count / 2]
        }
        _ = median(wrongLast)  // warm up
        let first = median(wrongFirst)
        let last = median(wrongLast)
        let ratio = first / last
        #expect(ratio > 0.5 && ratio < 2, "first byte wrong: \(first), last byte wrong: \(last)")
    }
}

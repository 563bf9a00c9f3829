import Foundation
import LocalState
import StoreCore
import StoreServer
import Testing

/// The comparison behind the admin token and verifyReceipt's shared secret. That its time does not
/// depend on where the first difference is, is measured by `storefront-bench --only constant-time`.
@Suite struct ConstantTimeTests {
    @Test func equalOnlyForTheSameString() {
        let secret = "test-admin-token-0123456789"
        #expect(ConstantTime.equal(secret, secret))
        #expect(ConstantTime.equal("", ""))
        #expect(ConstantTime.equal("é", "é"))
        for other in [
            "", "t", secret + "x", String(secret.dropLast()), "x" + secret.dropFirst(), String(secret.dropLast()) + "0",
            secret.uppercased(), " " + secret, secret + "\u{0}", "e\u{301}",
        ] {
            #expect(!ConstantTime.equal(other, secret), "\(other.debugDescription)")
        }
        #expect(!ConstantTime.equal("é", "e\u{301}"))  // bytes, not canonical equivalence
    }
}

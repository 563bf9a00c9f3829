import LocalState
import StoreCore
import StoreServer
import Testing

/// `storefront serve` warns for every address that is not loopback; which ones are is parsed, not guessed.
@Suite struct LoopbackTests {
    @Test func loopbackAddressesAreRecognised() {
        for host in [
            "127.0.0.1", "127.1.2.3", "127.255.255.254", "::1", "[::1]", "0:0:0:0:0:0:0:1", "localhost", "LOCALHOST",
        ] {
            #expect(ServerConfiguration.isLoopback(host), "\(host)")
        }
    }

    @Test func everythingElseIsNotLoopback() {
        for host in [
            "0.0.0.0", "::", "[::]", "192.0.2.2", "10.0.0.1", "128.0.0.1", "127.example.com", "127.0.0.1.nip.io",
            "localhost.example.com", "::2", "::ffff:8.8.8.8", "", "example.com", "1.2.3.4",
        ] {
            #expect(!ServerConfiguration.isLoopback(host), "\(host)")
        }
    }
}

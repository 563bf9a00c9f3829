import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import StoreCore
import StoreKitModel
import StoreServer
import StoreSigning
import TestSupport
import Testing
@_spi(CMS) import X509

/// The server's receipts as other verifiers see them: OpenSSL's `cms -verify` and
/// swift-certificates' CMS verifier, each given only the served root, and the chain the JWS carry.
@Suite struct ReceiptInteropTests {
    /// The receipt's DER and the served root as PEM, written to a scratch directory.
    static func written(_ fixture: ServerFixture, receipt: String) async throws -> (receipt: URL, root: URL) {
        let directory = scratchDirectory("receipt-interop")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let pem = try await fixture.test { client in
            let response = try await client.send(.get, "/.well-known/storefront-root-ca.pem")
            #expect(response.status == .ok)
            return Data(buffer: response.body)
        }
        let files = (directory.appendingPathComponent("receipt.der"), directory.appendingPathComponent("root.pem"))
        try #require(Data(base64Encoded: receipt)).write(to: files.0)
        try pem.write(to: files.1)
        return files
    }

    /// `openssl cms -verify` with `purpose`: its exit status, output and the content it wrote.
    static func openssl(_ files: (receipt: URL, root: URL), purpose: [String]) throws -> (
        status: Int32, output: String, content: Data?
    ) {
        let content = files.receipt.deletingLastPathComponent().appendingPathComponent(
            "content-\(UUID().uuidString).der")
        let result = try runProgram(
            [
                "openssl", "cms", "-verify", "-inform", "DER", "-in", files.receipt.path, "-CAfile", files.root.path,
                "-out", content.path, "-binary",
            ] + purpose)
        return (result.status, result.output, try? Data(contentsOf: content))
    }

    /// OpenSSL verifies the receipt with the served root, under its default S/MIME signing purpose
    /// and under `-purpose any`, and gives back the content exactly; another server's root fails.
    @Test func opensslVerifiesAReceiptWithTheServedRoot() async throws {
        let fixture = try await ServerFixture()
        _ = try await fixture.buy(ServerFixture.removeAds)
        let receipt = try #require(try await fixture.buy(ServerFixture.monthly).receipt)
        let files = try await Self.written(fixture, receipt: receipt)
        let content = try PKCS7SignedData(derEncoded: Array(try #require(Data(base64Encoded: receipt)))).content
        for purpose in [[], ["-purpose", "any"]] {
            let result = try Self.openssl(files, purpose: purpose)
            #expect(
                result.status == 0 && result.output.contains("Verification successful"), "\(purpose): \(result.output)")
            #expect(result.content.map(Array.init) == content, "\(purpose)")
        }
        let other = try await ServerFixture()
        let foreign = try Self.openssl(
            (files.receipt, try await Self.written(other, receipt: receipt).root), purpose: [])
        #expect(foreign.status != 0, "\(foreign.output)")
    }

    @Test func swiftCertificatesVerifiesAReceiptWithTheServedRoot() async throws {
        let fixture = try await ServerFixture()
        let receipt = try #require(try await fixture.buy(ServerFixture.removeAds).receipt)
        let root = try Certificate(derEncoded: Array(fixture.service.signer.chain.root))
        let result = await CMS.isValidAttachedSignature(
            signatureBytes: Array(try #require(Data(base64Encoded: receipt))),
            trustRoots: CertificateStore([root])
        ) {
            RFC5280Policy()
        }
        guard case .success(let valid) = result else {
            Issue.record("swift-certificates refused the receipt: \(result)")
            return
        }
        #expect(valid.signer == (try Certificate(derEncoded: Array(fixture.service.signer.chain.certificates[0]))))
    }

    /// One identity signs both: the receipt encloses the three certificates every JWS names in `x5c`.
    @Test func receiptsAndJWSShareOneChain() async throws {
        let fixture = try await ServerFixture()
        let base64 = try #require(try await fixture.buy(ServerFixture.removeAds).receipt)
        let receipt = Array(try #require(Data(base64Encoded: base64)))
        for certificate in fixture.service.signer.chain.certificates {
            #expect(receipt.firstRange(of: Array(certificate)) != nil)
        }
    }
}

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreServer
import StoreSigning
import TestSupport
import Testing
@_spi(CMS) import X509

/// Receipts that were not issued by this store, or were changed after, are refused by verifyReceipt
/// and by the app server's check (21002 when they are not PKCS#7 with the receipt inside, 21003
/// when this store's leaf key did not sign them), and a refused one records nothing.
@Suite struct ForgedReceiptTests {
    static func randomBytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    /// The receipt's content signed again with `key`, enclosing `certificates` (leaf first).
    static func resigned(_ receipt: String, key: P256.Signing.PrivateKey, certificates: [Data]) throws -> String {
        let content = try PKCS7SignedData(derEncoded: Array(try #require(Data(base64Encoded: receipt)))).content
        let chain = try certificates.map { try Certificate(derEncoded: Array($0)) }
        let signed = try CMS.sign(
            content, signatureAlgorithm: .ecdsaWithSHA256, additionalIntermediateCertificates: Array(chain.dropFirst()),
            certificate: chain[0], privateKey: Certificate.PrivateKey(key), detached: false)
        return Data(signed).base64EncodedString()
    }

    /// The receipt with one byte of its signature changed: still DER, no longer the store's signature.
    static func badSignature(_ receipt: String) -> String {
        var bytes = Array(Data(base64Encoded: receipt) ?? Data())
        bytes[bytes.count - 10] ^= 0x01  // inside the signature's s, its last element
        return Data(bytes).base64EncodedString()
    }

    @Test func forgedReceiptsAreRefused() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        let receipt = try #require(bought.receipt)
        let bytes = try #require(Data(base64Encoded: receipt))
        // Another store with the same catalog and environment: its receipts are genuine, but not ours.
        let other = try await ServerFixture()
        let foreign = try #require(try await other.buy(ServerFixture.gems).receipt)
        let ours = fixture.service.signer.chain.certificates
        let attacker = P256.Signing.PrivateKey()
        let attackersChain = try SigningChain.mint(leafKey: attacker, at: Date()).certificates
        let content = try PKCS7SignedData(derEncoded: Array(bytes)).content
        let detached = try CMS.sign(
            content, certificate: try Certificate(derEncoded: Array(attackersChain[0])),
            privateKey: Certificate.PrivateKey(attacker), detached: true)
        let oldFormat = Data(#"{"payload":"e30=","signature":"AAAA"}"#.utf8).base64EncodedString()
        let forged: [(String, Int)] = [
            (Self.randomBytes(300).base64EncodedString(), 21002),  // made-up bytes
            (oldFormat, 21002),  // the JSON envelope of earlier versions
            (ours[2].base64EncodedString(), 21002),  // DER, but a certificate
            (bytes.prefix(bytes.count / 2).base64EncodedString(), 21002),  // cut short
            (Data(detached).base64EncodedString(), 21002),  // the content left out
            (Self.badSignature(receipt), 21003),  // a changed signature
            (tampered(receipt), 21003),  // a changed content
            (foreign, 21003),  // another store's
            // Another key, with our certificates.
            (try Self.resigned(receipt, key: attacker, certificates: ours), 21003),
            (try Self.resigned(receipt, key: attacker, certificates: attackersChain), 21003),  // another key and chain
        ]
        try await fixture.test { client in
            for (index, (data, status)) in forged.enumerated() {
                let answer = try await client.object(.post, "/verifyReceipt", json: #"{"receipt-data":"\#(data)"}"#)
                #expect(answer["status"] as? Int == status, "case \(index)")
                #expect(answer["receipt"] == nil, "case \(index)")
                let check = try await client.object(
                    .post, "/v1/verify",
                    json: """
                        {"receipt":"\(data)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"forger-\(index)"}
                        """)
                #expect(check["result"] as? String == "rejected", "case \(index)")
            }
            // None of the refusals consumed the transaction: its rightful claim still verifies.
            let rightful = try await client.object(
                .post, "/v1/verify",
                json: """
                    {"receipt":"\(receipt)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"ledger-1"}
                    """)
            #expect(rightful["result"] as? String == "verified")
        }
    }

    /// Each byte of a receipt changed in turn, certificates and signer's name included: every one
    /// is refused as malformed (21002) or not authentic (21003), none crashes or opens.
    @Test func everyTamperedByteIsRefused() async throws {
        let fixture = try await ServerFixture()
        let receipt = try #require(try await fixture.buy(ServerFixture.gems).receipt)
        let bytes = Array(try #require(Data(base64Encoded: receipt)))
        var statuses: [VerifyStatus: Int] = [:]
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x01
            guard case .invalid(let status) = fixture.service.store.openReceipt(Data(changed).base64EncodedString())
            else {
                Issue.record("byte \(index) of \(bytes.count) changed and the receipt still opens")
                continue
            }
            statuses[status, default: 0] += 1
        }
        #expect(Set(statuses.keys) == [.malformedReceiptData, .notAuthenticated], "\(statuses)")
    }

    /// A genuine receipt of the other environment (the same state opened as production) is refused
    /// by the app server's check too, not only by verifyReceipt (21007/21008 there).
    @Test func aReceiptFromTheOtherEnvironmentIsRefusedByTheAppServerCheck() async throws {
        let directory = scratchDirectory("forged")
        let production = try await ServerFixture(directory: directory, environment: .production)
        let bought = try await production.buy(ServerFixture.gems)
        let receipt = try #require(bought.receipt)
        let sandbox = try await ServerFixture(directory: directory, environment: .sandbox)
        try await sandbox.test { client in
            let check = try await client.object(
                .post, "/v1/verify",
                json: """
                    {"receipt":"\(receipt)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"c"}
                    """)
            #expect(check["result"] as? String == "rejected")
            #expect(check["status"] as? Int == 21008)
            let apple = try await client.object(.post, "/verifyReceipt", json: #"{"receipt-data":"\#(receipt)"}"#)
            #expect(apple["status"] as? Int == 21008)
        }
    }
}

import Crypto
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalState
import StoreCore
import StoreServer
import Testing
import TestSupport

/// Receipts that were not issued by this store, or were changed after, are refused by verifyReceipt
/// and by the app server's check, and a refused one records nothing.
@Suite struct ForgedReceiptTests {
    /// A receipt's envelope: `{"payload": base64(JSON), "signature": base64(HMAC-SHA256)}`, base64.
    static func envelope(payload: Data, signature: Data) -> String {
        let object = ["payload": payload.base64EncodedString(), "signature": signature.base64EncodedString()]
        return ((try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data()).base64EncodedString()
    }

    static func payload(of receipt: String) throws -> Data {
        let data = try #require(Data(base64Encoded: receipt))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: String])
        return try #require(object["payload"].flatMap { Data(base64Encoded: $0) })
    }

    static func randomBytes(_ count: Int) -> Data {
        Data((0..<count).map { _ in UInt8.random(in: 0...255) })
    }

    @Test func forgedReceiptsAreRefused() async throws {
        let fixture = try await ServerFixture()
        let bought = try await fixture.buy(ServerFixture.gems)
        let receipt = try #require(bought.receipt)
        let payload = try Self.payload(of: receipt)
        // Another store with the same catalog and environment: its receipts are genuine, but not ours.
        let other = try await ServerFixture()
        let foreign = try #require(try await other.buy(ServerFixture.gems).receipt)
        // A payload naming a transaction, signed with keys an attacker might guess.
        let guessedKeys = [Data(repeating: 0, count: 32), Data("storefront".utf8), Data()]
        let signedWithGuesses = guessedKeys.map { key in
            Self.envelope(payload: payload, signature: Data(HMAC<SHA256>.authenticationCode(for: payload, using: SymmetricKey(data: key))))
        }
        let forged: [(String, Int)] = [
            (Self.randomBytes(300).base64EncodedString(), 21002),                            // made-up bytes
            (Data("{\"payload\":\"e30=\"}".utf8).base64EncodedString(), 21002),            // no signature
            (Self.envelope(payload: payload, signature: Self.randomBytes(32)), 21003),      // a wrong signature
            (Self.envelope(payload: payload, signature: Data()), 21003),                    // an empty one
            (Self.envelope(payload: payload, signature: Self.randomBytes(31)), 21003),      // a short one
            (tampered(receipt), 21003),                                                     // the payload changed
            (foreign, 21003),                                                               // another store's
        ] + signedWithGuesses.map { ($0, 21003) }
        try await fixture.test { client in
            for (index, (data, status)) in forged.enumerated() {
                let answer = try await client.object(.post, "/verifyReceipt", json: #"{"receipt-data":"\#(data)"}"#)
                #expect(answer["status"] as? Int == status, "case \(index)")
                #expect(answer["receipt"] == nil, "case \(index)")
                let check = try await client.object(.post, "/v1/verify", json: """
                    {"receipt":"\(data)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"forger-\(index)"}
                    """)
                #expect(check["result"] as? String == "rejected", "case \(index)")
            }
            // None of the refusals consumed the transaction: its rightful claim still verifies.
            let rightful = try await client.object(.post, "/v1/verify", json: """
                {"receipt":"\(receipt)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"ledger-1"}
                """)
            #expect(rightful["result"] as? String == "verified")
        }
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
            let check = try await client.object(.post, "/v1/verify", json: """
                {"receipt":"\(receipt)","transactionId":"\(bought.transaction.id)","productId":"\(ServerFixture.gems)","claim":"c"}
                """)
            #expect(check["result"] as? String == "rejected")
            #expect(check["status"] as? Int == 21008)
            let apple = try await client.object(.post, "/verifyReceipt", json: #"{"receipt-data":"\#(receipt)"}"#)
            #expect(apple["status"] as? Int == 21008)
        }
    }
}

import Foundation
import GRDB
import HTTPTypes
import StoreEngine
import StoreServer
import Testing

/// Earlier versions kept idempotency keys and the JWS signing key in `server.sqlite`; the store's
/// database holds them now, and a server started on an old directory brings them in.
@Suite struct LegacyServerFileTests {
    static let body = #"{"account":"alice","productId":"\#(ServerFixture.gems)","quantity":1}"#

    /// `server.sqlite` as the earlier version wrote it: its schema, a signing key, one answered key.
    static func writeLegacyFile(in directory: URL, jwsKey: Data, answer: Data) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("server.sqlite").path)
        let hash = sha256Hex(Array("POST /v1/payments\n".utf8) + Array(body.utf8))
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE idempotency_keys (key TEXT PRIMARY KEY, request_hash TEXT NOT NULL, generation TEXT NOT NULL,
                    reserved_at REAL NOT NULL, status INTEGER, body BLOB, completed_at REAL);
                CREATE TABLE server_settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
                """)
            try db.execute(sql: "INSERT INTO server_settings (key, value) VALUES ('jws_key', ?)", arguments: [jwsKey.base64EncodedString()])
            let now = Date().timeIntervalSince1970
            try db.execute(sql: "INSERT INTO idempotency_keys VALUES ('legacy-key', ?, 'generation-1', ?, 201, ?, ?)",
                           arguments: [hash, now, answer, now])
        }
        try queue.close()
    }

    @Test func anOldServerFileIsImportedOnceWithItsKeysAndSigningKey() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-legacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let jwsKey = TransactionSigner.newKey()
        let answer = Data(#"{"transaction":{"transactionId":"2000000000000042","state":"purchasing"}}"#.utf8)
        try Self.writeLegacyFile(in: directory, jwsKey: jwsKey, answer: answer)

        let fixture = try await ServerFixture(directory: directory)
        #expect(fixture.service.signer.publicKeyPEM == (try TransactionSigner(rawKey: jwsKey)).publicKeyPEM)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(!files.contains("server.sqlite") && files.contains("server.sqlite.imported"), "\(files.sorted())")
        try await fixture.test { client in
            let retry = try await client.send(.post, "/v1/payments", json: Self.body, headers: ["Idempotency-Key": "legacy-key"])
            #expect(retry.status == .created)
            #expect(Data(buffer: retry.body) == answer)
            #expect(retry.headers[HTTPField.Name("Idempotent-Replayed")!] == "true")
            let history = try await client.object(.get, "/v1/accounts/alice/transactions")
            #expect((history["transactions"] as? [Any])?.isEmpty == true, "the replay charged")
        }
        // Started again: the same key, now from the store itself.
        let again = try await ServerFixture(directory: directory)
        #expect(again.service.signer.publicKeyPEM == fixture.service.signer.publicKeyPEM)
    }

    /// An earlier import's file is still there (an upgrade, a downgrade that made a new
    /// server.sqlite, an upgrade again): the new one is set aside under the next free name, and
    /// rows an earlier version could not have written are skipped instead of trapping on replay.
    @Test func aSecondImportAndMalformedRowsDoNotStopTheServer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-legacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let answer = Data(#"{"transaction":{"transactionId":"2000000000000042","state":"purchasing"}}"#.utf8)
        try Self.writeLegacyFile(in: directory, jwsKey: TransactionSigner.newKey(), answer: answer)
        try Data("an earlier import".utf8).write(to: directory.appendingPathComponent("server.sqlite.imported"))
        let queue = try DatabaseQueue(path: directory.appendingPathComponent("server.sqlite").path)
        try await queue.write { db in
            try db.execute(sql: "INSERT INTO idempotency_keys VALUES ('bad-status', 'h', 'g', 1e12, 9999, x'00', 1e12)")
            try db.execute(sql: "INSERT INTO idempotency_keys VALUES ('bad-time', 'h', 'g', 'yesterday', NULL, NULL, NULL)")
        }
        try queue.close()

        let fixture = try await ServerFixture(directory: directory)
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        #expect(files.contains("server.sqlite.imported-2") && !files.contains("server.sqlite"), "\(files.sorted())")
        try await fixture.test { client in
            let retry = try await client.send(.post, "/v1/payments", json: Self.body, headers: ["Idempotency-Key": "legacy-key"])
            #expect(Data(buffer: retry.body) == answer)
            let other = #"{"account":"alice","productId":"\#(ServerFixture.gems)","quantity":2}"#
            for key in ["bad-status", "bad-time"] {
                // Not imported: the key is free, so this is a new payment rather than a replay or a 409.
                let paid = try await client.send(.post, "/v1/payments", json: other, headers: ["Idempotency-Key": key])
                #expect(paid.status == .created && paid.headers[HTTPField.Name("Idempotent-Replayed")!] == nil)
            }
        }
    }

    /// A store that already has a signing key keeps it: clients already verify with it.
    @Test func theStoresOwnSigningKeyWins() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("storefront-legacy-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let first = try await ServerFixture(directory: directory)
        try Self.writeLegacyFile(in: directory, jwsKey: TransactionSigner.newKey(), answer: Data("{}".utf8))
        let second = try await ServerFixture(directory: directory)
        #expect(second.service.signer.publicKeyPEM == first.service.signer.publicKeyPEM)
    }
}

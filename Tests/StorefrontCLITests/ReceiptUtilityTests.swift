import Foundation
import TestSupport
import Testing

/// A receipt from a real `storefront serve`, read as backends read App Store receipts: Apple's
/// `ReceiptUtility` (app-store-server-library, installed by `.ci/run`) finds its transaction id,
/// and `openssl cms -verify` accepts it with the root the server serves.
@Suite struct ReceiptUtilityTests {
    @Test func applesReceiptUtilityAndOpenSSLReadALiveServersReceipt() async throws {
        let root = scratchDirectory("receipt-utility")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let server = try ServeProcess.start(
            db: root.appendingPathComponent("server"), arguments: ["--admin-token", "receipt-admin-token-0123"])
        defer { server.stop() }
        let bought = try Executable.run(
            [
                "buy", "com.example.storefront.removeads", "--account", "alice", "--json",
                "--state", root.appendingPathComponent("device").path,
            ],
            environment: ["STOREFRONT_STORE": server.baseURL])
        #expect(bought.status == 0, "\(bought.stderr)")
        let purchased = try #require(
            bought.stdout.split(separator: "\n").compactMap {
                (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any]
            }.last { $0["receipt"] != nil })
        let receipt = try #require(purchased["receipt"] as? String)
        let transactionId = try #require(purchased["transactionId"] as? String)

        let script = Executable.repositoryRoot.appendingPathComponent("Tests/Python/receipt_utility.py")
        let read = try Executable.run(python: [script.path, receipt])
        #expect(read.status == 0, "\(read.stderr)")
        #expect(read.stdout == transactionId + "\n", "\(read.stdout)\(read.stderr)")

        let pem = try await HTTP.send("GET", server.baseURL + "/.well-known/storefront-root-ca.pem")
        #expect(pem.status == 200)
        try pem.body.write(to: root.appendingPathComponent("root.pem"))
        try #require(Data(base64Encoded: receipt)).write(to: root.appendingPathComponent("receipt.der"))
        let verified = try Executable.shell(
            """
            cd '\(root.path)' && openssl cms -verify -inform DER -in receipt.der -CAfile root.pem -purpose any -binary -out content.der
            """)
        #expect(
            verified.status == 0 && verified.stderr.contains("Verification successful"),
            "\(verified.stdout)\(verified.stderr)")
    }
}

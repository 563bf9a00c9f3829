import ArgumentParser
import Foundation
import StoreCore

/// StoreKit's `AppTransaction.shared`, from the command line: the account's purchase of the app.
struct AppTransactionCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "app-transaction",
        abstract: "The account's AppTransaction: when it first got the app, and its app transaction id.",
        discussion: """
            The id is the appTransactionId every signed transaction and renewal info of the account carries; \
            Get App Transaction Info (GET /inApps/v1/transactions/appTransactions/{id}) signs the same record.
            """)

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "Print the AppTransaction as JSON.") var json = false

    func run() async throws {
        let session = try await options.open()
        let info: AppTransactionInfo
        // StoreKit's AppTransaction.shared failing (a simulated error), as the app would see it.
        if let error = try await session.store.controls().apiErrors[.appTransaction] {
            throw CommandFailure.failure(
                "AppTransaction.shared failed: \(error.domain) \(error.code) \(error.name) (a simulated error; manage set api-error app-transaction none turns it off)"
            )
        }
        do {
            info = try await session.store.appTransaction(account: session.account.name)
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
        let record = AppTransactionJSON(info, account: session.account.name)
        if json {
            Console.json(try JSONOutput.encode(record))
        } else {
            Console.out(
                lines: [
                    "App transaction of \(record.account) for \(record.bundleId) (\(record.environment))",
                    "  appTransactionId:           \(record.appTransactionId)",
                    "  originalPurchaseDate:       \(record.originalPurchaseDate)",
                    "  originalApplicationVersion: \(record.originalApplicationVersion)",
                    "  applicationVersion:         \(record.applicationVersion)",
                ] + (record.preorderDate.map { ["  preorderDate:               \($0)"] } ?? []))
        }
    }
}

/// `storefront app-transaction --json`; field names are a contract with scripts and tests.
struct AppTransactionJSON: Encodable {
    let account: String
    let appTransactionId: String
    let bundleId: String
    let originalPurchaseDate: String
    let originalApplicationVersion: String
    let applicationVersion: String
    /// Only for an app the account pre-ordered.
    let preorderDate: String?
    let environment: String

    init(_ info: AppTransactionInfo, account: String) {
        self.account = account
        appTransactionId = info.appTransactionId
        bundleId = info.bundleId
        originalPurchaseDate = info.originalPurchaseDate.formatted(.iso8601)
        originalApplicationVersion = info.originalApplicationVersion
        applicationVersion = info.applicationVersion
        preorderDate = info.preorderDate?.formatted(.iso8601)
        environment = info.environment.rawValue
    }
}

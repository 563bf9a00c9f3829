import AppSide
import ArgumentParser
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel

struct TransactionsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "transactions",
        abstract: "List the account's transactions: the unfinished queue and the history."
    )

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "Print {\"unfinished\":[...],\"history\":[...]} as JSON.")
    var json = false

    struct Output: Encodable {
        let unfinished: [TransactionJSON]
        let history: [TransactionJSON]
    }

    func run() async throws {
        let session = try await options.open()
        let account = session.account
        let all = try await session.store.transactions(account: account.name)
        let output = Output(
            unfinished: all.filter { !$0.finished && $0.state != .purchasing }.map {
                TransactionJSON($0, language: session.language)
            },
            history: all.map { TransactionJSON($0, language: session.language) })
        if json {
            Console.json(try JSONOutput.encode(output))
            return
        }
        Console.out("\(account.name): \(output.unfinished.count) unfinished, \(output.history.count) in all")
        for item in output.history {
            let error = item.error.map { "  SKError \($0.code) \($0.name)" } ?? ""
            let charged = item.price.map { "  \($0) \(item.currency ?? "")" } ?? ""
            let offer = item.offerType.map { "  \($0) offer" + (item.offerPaymentMode.map { " (\($0))" } ?? "") } ?? ""
            let refunded = item.revocationDate.map { "  refunded \($0) (\(item.revocationReason ?? "other"))" } ?? ""
            Console.out(
                "\(item.purchaseDate)  \(item.transactionId)  \(item.state.padding(toLength: 10, withPad: " ", startingAt: 0))  \(item.productId) ×\(item.quantity)\(item.finished ? "  finished" : "")\(charged)\(offer)\(refunded)\(error)"
            )
        }
    }
}

struct FinishCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "finish",
        abstract: "Finish a transaction (refused while it is purchasing or deferred)."
    )

    @OptionGroup var options: StoreOptions

    @Argument(help: "The transaction id.")
    var transactionId: String

    func run() async throws {
        let session = try await options.open()
        do {
            try await session.store.finish(transactionId: transactionId, account: session.account.name)
            Console.out("finished \(transactionId)")
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

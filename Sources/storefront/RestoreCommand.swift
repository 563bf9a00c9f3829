import AppSide
import ArgumentParser
import Foundation
import LocalState
import StoreCore
import StoreEngine
import StoreKitModel

struct RestoreCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Restore completed transactions (non-consumables and auto-renewable subscriptions).",
        discussion: """
            Each owned item comes back as a NEW transaction in state restored, pointing at the original; the app
            delivers it (once), verifies and finishes it. Consumables and non-renewing subscriptions are never
            restored. A forced outcome (manage set next-outcome fail:CODE, network or cancel) fails the restore.
            Exit status: 0 restored or nothing to restore, 3 failed.
            """
    )

    @OptionGroup var options: StoreOptions

    @Flag(name: .long, help: "Print JSON Lines: one object per restored transaction and app step, then the result.")
    var json = false

    func run() async throws {
        let session = try await options.open()
        let printer = StepPrinter(json: json, language: session.language, locale: session.locale)
        do {
            try await StepPrinter.handleUnfinished(session, printer: printer)
            let restored: [TransactionUpdate]
            do {
                restored = try await session.store.restore(account: session.account.name)
            } catch let error as StoreError {
                printer.restoreFailed(error)
                throw ExitCode(3)
            }
            for update in restored {
                printer.update(update)
                for step in try await session.observer.handle(update) { printer.step(step) }
            }
            printer.restoreFinished(count: restored.count, account: session.account.name)
        } catch let failure as StoreFailure {
            throw CommandFailure.failure(failure.message)
        }
    }
}

extension StepPrinter {
    func restoreFinished(count: Int, account: String) {
        let text =
            count == 0
            ? "result: nothing to restore — \(account) owns no non-consumables or auto-renewable subscriptions (consumables and non-renewing subscriptions are never restored)"
            : "result: restored \(count) transaction\(count == 1 ? "" : "s")"
        emit(["result": count == 0 ? "nothing" : "restored", "restored": count], text: text)
    }

    func restoreFailed(_ error: StoreError) {
        let message = error.text(in: language).message
        emit(
            [
                "result": error == .storeKit(.paymentCancelled) ? "cancelled" : "failed",
                "error": ["code": error.code, "domain": error.domain, "name": error.name, "message": message],
            ],
            text: "restore failed: \(error.domain) \(error.code) \(error.name): \(message)")
    }
}

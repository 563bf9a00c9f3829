import ArgumentParser
import Foundation
import StoreKitModel

struct ErrorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "errors",
        abstract: "List every SKError code and network error with its message and developer detail."
    )

    @Option(
        name: .long,
        help: ArgumentHelp("Language: en or zh-Hans. Default: from LC_ALL/LANG, else en.", valueName: "lang"))
    var lang: String?

    @Flag(name: .long, help: "Print a JSON array instead of text.")
    var json = false

    struct Entry: Encodable {
        let code: Int
        let domain: String
        let name: String
        let message: String
        let detail: String
    }

    func run() throws {
        guard let language = Language.resolve(flag: lang, environment: ProcessInfo.processInfo.environment) else {
            throw CommandFailure.usage("--lang \(lang ?? ""): unknown language; use en or zh-Hans")
        }
        let errors = SKErrorCode.allCases.map(StoreError.storeKit) + URLErrorCode.allCases.map(StoreError.network)
        let entries = errors.map { error in
            let text = error.text(in: language)
            return Entry(
                code: error.code, domain: error.domain, name: error.name, message: text.message, detail: text.detail)
        }
        if json {
            Console.json(try JSONOutput.encode(entries))
            return
        }
        for entry in entries {
            Console.out("\(entry.domain) \(entry.code) \(entry.name)")
            Console.out("  \(entry.message)")
            Console.out("  \(entry.detail)")
        }
    }
}

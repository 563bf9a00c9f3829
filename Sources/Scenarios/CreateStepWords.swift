import Foundation
import StoreCore
import StoreKitModel

/// `create PRODUCT --account A --date DATE [--app-account-token UUID] [--offer ID] [--auto-renew
/// on|off]`: a transaction made outside the device, as `storefront manage create` takes it.
extension ManageStep {
    static let createUsage = ManageVerb.create.usage

    static func parseCreate(_ words: [String]) -> Result<ManageStep, WordsProblem> {
        guard let product = words.first, !product.hasPrefix("--") else {
            return .failure(WordsProblem("create takes a product first: \(createUsage)"))
        }
        var options: [String: String] = [:]
        var rest = words.dropFirst()
        let known = [
            TransactionCreation.accountOption, TransactionCreation.dateOption, TransactionCreation.tokenOption,
            TransactionCreation.offerOption, TransactionCreation.autoRenewOption,
        ]
        while let option = rest.first {
            guard known.contains(option), options[option] == nil else {
                return .failure(
                    WordsProblem(
                        "create takes \(known.joined(separator: ", ")), each once; found \(brief(.string(option)))"))
            }
            guard rest.count >= 2 else { return .failure(WordsProblem("\(option) takes a value: \(createUsage)")) }
            options[option] = rest.dropFirst().first
            rest = rest.dropFirst(2)
        }
        return creation(product, options).map(ManageStep.init(creating:))
    }

    private static func creation(_ product: String, _ options: [String: String]) -> Result<
        TransactionCreation, WordsProblem
    > {
        guard let account = options[TransactionCreation.accountOption] else {
            return .failure(WordsProblem("create needs \(TransactionCreation.accountOption): \(createUsage)"))
        }
        guard let dateText = options[TransactionCreation.dateOption] else {
            return .failure(WordsProblem("create needs \(TransactionCreation.dateOption): \(createUsage)"))
        }
        guard let date = TransactionCreation.date(from: dateText) else {
            return .failure(
                WordsProblem(
                    "\(TransactionCreation.dateOption) \(brief(.string(dateText))): expected \(TransactionCreation.dateInWords)"
                ))
        }
        var token: UUID?
        if let text = options[TransactionCreation.tokenOption] {
            guard let uuid = UUID(uuidString: text) else {
                return .failure(
                    WordsProblem("\(TransactionCreation.tokenOption) \(brief(.string(text))): expected a UUID"))
            }
            token = uuid
        }
        var autoRenew = true
        if let text = options[TransactionCreation.autoRenewOption] {
            guard let setting = Switch(rawValue: text) else {
                return .failure(
                    WordsProblem(
                        "\(TransactionCreation.autoRenewOption) takes \(Switch.inWords), found \(brief(.string(text)))")
                )
            }
            autoRenew = setting.isOn
        }
        return .success(
            TransactionCreation(
                productId: product, account: account, purchaseDate: date, appAccountToken: token,
                offerId: options[TransactionCreation.offerOption], autoRenew: autoRenew))
    }
}

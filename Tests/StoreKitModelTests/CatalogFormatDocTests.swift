import Foundation
import StoreKitModel
import Testing

// docs/catalog-format.md is the contract for products.json. These tests read its key tables and
// check them against the decoder: the keys each object accepts, and which of them are required.

private let repositoryRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// One row of a key table: the line above the table (a heading or a caption), the key, and the
/// text of its "required" cell.
private struct DocumentedKey {
    let table: String
    let key: String
    let required: String
}

private func documentedKeys() throws -> [DocumentedKey] {
    let url = repositoryRoot.appendingPathComponent("docs/catalog-format.md")
    let text = try String(contentsOf: url, encoding: .utf8)
    var caption = ""
    var keys: [DocumentedKey] = []
    for line in text.split(separator: "\n") {
        guard line.hasPrefix("|") else {
            caption = String(line)
            continue
        }
        let cells = line.split(separator: "|", omittingEmptySubsequences: false).map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        // Header and separator rows have no key in backquotes.
        guard cells.count >= 4, cells[1].hasPrefix("`") else { continue }
        keys.append(
            DocumentedKey(
                table: caption, key: cells[1].trimmingCharacters(in: CharacterSet(charactersIn: "`")),
                required: cells[3]))
    }
    return keys
}

/// Where each documented table's object is in `SampleCatalog`, as a function that edits it.
private enum Section: CaseIterable {
    case topLevel, storefront, account, subscriptionGroup, product, autoRenewable, introOffer

    init?(caption: String) {
        switch caption {
        case "## Top level": self = .topLevel
        case "## Storefronts": self = .storefront
        case "## Accounts": self = .account
        case "## Subscription groups": self = .subscriptionGroup
        case "## Products": self = .product
        case _ where caption.hasPrefix("For `autoRenewable`"): self = .autoRenewable
        case "`introOffer`:": self = .introOffer
        default: return nil
        }
    }

    /// The sample catalog after `change` edits this section's object (in `products[productIndex]` for products).
    func sample(productIndex: Int = 2, _ change: @escaping (inout [String: Any]) -> Void) -> [UInt8] {
        func first(_ key: String, in root: inout [String: Any]) {
            var items = root[key] as? [[String: Any]] ?? []
            change(&items[0])
            root[key] = items
        }
        switch self {
        case .topLevel: return SampleCatalog.mutated(change)
        case .storefront: return SampleCatalog.mutated { first("storefronts", in: &$0) }
        case .account: return SampleCatalog.mutated { first("accounts", in: &$0) }
        case .subscriptionGroup: return SampleCatalog.mutated { first("subscriptionGroups", in: &$0) }
        case .product: return SampleCatalog.mutatingProduct(productIndex, change)
        case .autoRenewable: return SampleCatalog.mutatingSubscription(2, change)
        case .introOffer:
            return SampleCatalog.mutatingSubscription(2) { subscription in
                var offer = subscription["introOffer"] as? [String: Any] ?? [:]
                change(&offer)
                subscription["introOffer"] = offer
            }
        }
    }

    /// The sample's product that has `key`, so removing it tests something.
    static func productIndex(having key: String) -> Int? {
        guard let root = try? JSONSerialization.jsonObject(with: Data(SampleCatalog.text.utf8)) as? [String: Any],
            let products = root["products"] as? [[String: Any]]
        else { return nil }
        return products.firstIndex { $0[key] != nil }
    }
}

@Test func documentedKeysAreExactlyTheKeysEachObjectAccepts() throws {
    let keys = try documentedKeys()
    for section in Section.allCases {
        let documented = Set(keys.filter { Section(caption: $0.table) == section }.map(\.key))
        #expect(!documented.isEmpty, "no key table for \(section) in docs/catalog-format.md")
        // The decoder answers an unknown key with the list of the keys it accepts.
        let error = try #require(catalogError(section.sample { $0["notAKey"] = 1 }))
        let message = try #require(error.problems.first { $0.path.hasSuffix("notAKey") }?.message, "\(section)")
        let list = try #require(message.firstMatch(of: /expected one of: ([^)]*)\)/)?.1, "\(section): \(message)")
        let accepted = Set(list.split(separator: ", ").map(String.init))
        #expect(documented == accepted, "\(section): documented \(documented.sorted()), accepted \(accepted.sorted())")
    }
}

@Test func documentedRequiredKeysAreRequiredAndTheOthersAreNot() throws {
    let keys = try documentedKeys().filter { Section(caption: $0.table) != nil }
    #expect(keys.count >= 30)
    for documented in keys {
        let section = try #require(Section(caption: documented.table))
        let isRequired = documented.required == "yes"
        guard isRequired || documented.required == "no" else { continue }  // conditional: tested elsewhere
        var productIndex = 2
        if section == .product {
            guard let index = Section.productIndex(having: documented.key) else { continue }
            productIndex = index
        }
        let bytes = section.sample(productIndex: productIndex) { $0.removeValue(forKey: documented.key) }
        let missing =
            catalogError(bytes)?.problems.filter { $0.message.hasPrefix("missing \"\(documented.key)\"") } ?? []
        if isRequired {
            #expect(
                !missing.isEmpty,
                "\(documented.table) `\(documented.key)` is documented as required, but the catalog decodes without it")
        } else {
            #expect(
                missing.isEmpty,
                "\(documented.table) `\(documented.key)` is documented as optional, but the decoder requires it")
        }
    }
}

// MARK: - The documented defaults

@Test func catalogWithoutItsOptionalTopLevelKeysUsesTheDocumentedDefaults() throws {
    let bytes = SampleCatalog.mutated { root in
        for key in ["languages", "defaultStorefront", "accounts"] { root.removeValue(forKey: key) }
    }
    let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
    #expect(catalog.languages == ["en"])
    #expect(catalog.defaultStorefront == "USA")
    #expect(catalog.accounts.isEmpty)
    #expect(catalog.defaultAccount.name == "tester")
    #expect(catalog.defaultAccount.storefront == "USA")
}

@Test func accountWithOnlyANameAndAStorefrontUsesTheDocumentedDefaults() throws {
    let catalog = try CatalogLoader.decode(
        SampleCatalog.mutated { $0["accounts"] = [["name": "bob", "storefront": "JPN"]] }, source: "sample.json")
    let account = try #require(catalog.accounts.first)
    #expect(account.askToBuy == false)
    #expect(account.paymentsAllowed == true)
    #expect(account.note == "")
}

@Test func introOfferWithoutPeriodsLastsOnePeriod() throws {
    let bytes = SampleCatalog.mutatingSubscription(2) {
        $0["introOffer"] = ["paymentMode": "freeTrial", "period": "P3D"]
    }
    let catalog = try CatalogLoader.decode(bytes, source: "sample.json")
    #expect(catalog.products[2].subscription?.introOffer?.periods == 1)
    #expect(catalog.products[2].subscription?.introOffer?.period == SubscriptionPeriod(value: 3, unit: .day))
}

@Test func documentedMinimalExampleDecodes() throws {
    let text = try String(contentsOf: repositoryRoot.appendingPathComponent("docs/catalog-format.md"), encoding: .utf8)
    let example = try #require(text.firstMatch(of: /```json\n(?<json>[\s\S]*?)```/)?.json)
    let catalog = try CatalogLoader.decode(Array(example.utf8), source: "catalog-format.md")
    #expect(catalog.products.count == 2)
}

import Foundation
import StoreKitModel

/// A small valid native catalog (USA and JPN; en and zh-Hans; a consumable, a non-consumable and an
/// auto-renewable subscription in the "premium" group) and ways to break it one mistake at a time.
enum SampleCatalog {
    static let text = """
        {
          "format": "storefront-catalog",
          "version": 1,
          "bundleId": "com.example.sample",
          "languages": ["en", "zh-Hans"],
          "defaultStorefront": "USA",
          "storefronts": [
            {"id": "USA", "currency": "USD", "locale": "en_US"},
            {"id": "JPN", "currency": "JPY", "locale": "ja_JP"}
          ],
          "accounts": [
            {"name": "alice", "storefront": "USA", "askToBuy": false, "paymentsAllowed": true, "note": "Default account."}
          ],
          "subscriptionGroups": [
            {"id": "premium", "title": {"en": "Premium", "zh-Hans": "高级会员"}}
          ],
          "products": [
            {
              "id": "com.example.sample.gems.100",
              "type": "consumable",
              "title": {"en": "100 Gems", "zh-Hans": "100 颗宝石"},
              "description": {"en": "Adds 100 gems.", "zh-Hans": "充入 100 颗宝石。"},
              "prices": {"USA": "0.99", "JPN": "160"},
              "wallet": {"balance": "gems", "amount": 100}
            },
            {
              "id": "com.example.sample.removeads",
              "type": "nonConsumable",
              "title": {"en": "Remove Ads", "zh-Hans": "移除广告"},
              "description": {"en": "Removes all ads.", "zh-Hans": "移除所有广告。"},
              "prices": {"USA": "2.99", "JPN": "480"}
            },
            {
              "id": "com.example.sample.premium.monthly",
              "type": "autoRenewable",
              "title": {"en": "Premium Monthly", "zh-Hans": "高级会员（月度）"},
              "description": {"en": "Premium, billed monthly.", "zh-Hans": "按月付费的高级会员。"},
              "prices": {"USA": "4.99", "JPN": "800"},
              "subscription": {
                "group": "premium", "period": "P1M", "rank": 1,
                "introOffer": {"paymentMode": "freeTrial", "period": "P1W", "periods": 1}
              }
            }
          ]
        }
        """

    static var bytes: [UInt8] { Array(text.utf8) }

    /// The catalog after `change` edits its top-level object (parsed and re-serialized with JSONSerialization).
    static func mutated(_ change: (inout [String: Any]) -> Void) -> [UInt8] {
        guard var root = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] else {
            preconditionFailure("SampleCatalog.text is not a JSON object")
        }
        change(&root)
        guard let data = try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys]) else {
            preconditionFailure("the mutated catalog cannot be serialized")
        }
        return [UInt8](data)
    }

    /// The catalog after `change` edits `products[index]`.
    static func mutatingProduct(_ index: Int, _ change: @escaping (inout [String: Any]) -> Void) -> [UInt8] {
        mutated { root in
            var products = root["products"] as? [[String: Any]] ?? []
            change(&products[index])
            root["products"] = products
        }
    }

    /// The catalog after `change` edits the `subscription` object of `products[index]`.
    static func mutatingSubscription(_ index: Int, _ change: @escaping (inout [String: Any]) -> Void) -> [UInt8] {
        mutatingProduct(index) { product in
            var subscription = product["subscription"] as? [String: Any] ?? [:]
            change(&subscription)
            product["subscription"] = subscription
        }
    }
}

/// The error `CatalogLoader.decode` throws for `bytes`, or nil when they decode.
func catalogError(_ bytes: [UInt8], source: String = "bad.json") -> CatalogError? {
    do {
        _ = try CatalogLoader.decode(bytes, source: source)
        return nil
    } catch {
        return error
    }
}

extension CatalogError {
    /// The problem reported at exactly `path`, if any.
    func problem(at path: String) -> CatalogProblem? {
        problems.first { $0.path == path }
    }
}

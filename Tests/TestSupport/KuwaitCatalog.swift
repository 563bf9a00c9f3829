import Foundation
import StoreKitModel

/// The repository's products.json with a Kuwait storefront priced in dinars (KWD, which has three
/// decimals: 1.250 is one dinar and 250 fils) and an account in it, to follow a currency with
/// thousandths from the catalog to the signed price.
public enum KuwaitCatalog {
    public static let storefront = "KWT"
    public static let account = "fahad"
    /// The dinar prices written into the catalog, as a person would write them; the other
    /// products are not sold in Kuwait.
    public static let prices: [String: String] = [
        StoreFixture.gems: "1.250",
        StoreFixture.monthly: "1.500",
        StoreFixture.plusMonthly: "2.990",
    ]
    /// The prices of these products' offers that have prices: the monthly plan's promotional
    /// half price, and Premium Plus's introductory price.
    static let offerPrices: [String: String] = [StoreFixture.monthly: "0.750", StoreFixture.plusMonthly: "0.600"]

    /// The catalog's bytes; `price` replaces the gems' dinar price (to write one that is refused).
    public static func bytes(gemsPrice price: String = "1.250") throws -> Data {
        let text = try Data(contentsOf: StoreFixture.repositoryRoot.appendingPathComponent("products.json"))
        guard var root = try JSONSerialization.jsonObject(with: text) as? [String: Any],
            var storefronts = root["storefronts"] as? [[String: Any]],
            var accounts = root["accounts"] as? [[String: Any]],
            var products = root["products"] as? [[String: Any]]
        else { throw CocoaError(.fileReadCorruptFile) }
        storefronts.append(["id": storefront, "currency": "KWD", "locale": "ar_KW"])
        accounts.append([
            "name": account, "storefront": storefront, "askToBuy": false, "paymentsAllowed": true,
            "note": "Adult account in the Kuwait storefront, priced in dinars.",
        ])
        for index in products.indices {
            let id = products[index]["id"] as? String ?? ""
            guard var written = prices[id], var table = products[index]["prices"] as? [String: Any] else {
                products[index]["unavailableIn"] = (products[index]["unavailableIn"] as? [String] ?? []) + [storefront]
                continue
            }
            if id == StoreFixture.gems { written = price }
            table[storefront] = written
            products[index]["prices"] = table
            if var subscription = products[index]["subscription"] as? [String: Any], let offer = offerPrices[id] {
                subscription["introOffer"] = priced(subscription["introOffer"], offer)
                subscription["offers"] = (subscription["offers"] as? [Any])?.map { priced($0, offer) }
                products[index]["subscription"] = subscription
            }
        }
        root["storefronts"] = storefronts
        root["accounts"] = accounts
        root["products"] = products
        return try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted])
    }

    /// An offer with its Kuwait price, when it has prices.
    private static func priced(_ offer: Any?, _ price: String) -> Any? {
        guard var object = offer as? [String: Any], var table = object["prices"] as? [String: Any] else {
            return offer
        }
        table[storefront] = price
        object["prices"] = table
        return object
    }

    public static func catalog() throws -> Catalog {
        try CatalogLoader.decode(Array(try bytes()), source: "kuwait.json")
    }
}

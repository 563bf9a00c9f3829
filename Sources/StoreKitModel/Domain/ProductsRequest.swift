/// `SKProductsResponse`: the products the store knows and sells here, and every other
/// requested identifier.
public struct ProductsResponse: Sendable, Hashable {
    public let storefront: Storefront
    public let products: [Product]
    /// Unknown, removed, or not sold in this storefront, in request order.
    public let invalidProductIdentifiers: [String]
    /// The subset of the invalid identifiers that exist but are not sold in this storefront:
    /// not part of StoreKit's response, but what a developer needs to tell the cases apart.
    public let unavailableInStorefront: [String]

    public init(
        storefront: Storefront, products: [Product], invalidProductIdentifiers: [String],
        unavailableInStorefront: [String]
    ) {
        self.storefront = storefront
        self.products = products
        self.invalidProductIdentifiers = invalidProductIdentifiers
        self.unavailableInStorefront = unavailableInStorefront
    }
}

extension Catalog {
    /// Answers a products request like `SKProductsRequest`: duplicates collapse, order follows the request.
    public func request(ids: [String], storefront: Storefront) -> ProductsResponse {
        // Every id in catalog order (what the UI and `storefront products` ask for), in a catalog
        // whose ids are unique (a decoded one always is; the index has one entry per id): each is
        // at its own position, so no set and no lookups are needed.
        let wholeCatalog =
            ids.count == products.count && hasUniqueIds && ids.indices.allSatisfy { ids[$0] == products[$0].id }
        var seen = Set<String>(minimumCapacity: wholeCatalog ? 0 : ids.count)
        var found: [Product] = []
        found.reserveCapacity(ids.count)
        var invalid: [String] = []
        var unavailable: [String] = []
        for (position, id) in ids.enumerated() where wholeCatalog || seen.insert(id).inserted {
            guard let product = wholeCatalog ? products[position] : product(id: id), !product.removed else {
                invalid.append(id)
                continue
            }
            if product.isSold(in: storefront.id) {
                found.append(product)
            } else {
                invalid.append(id)
                unavailable.append(id)
            }
        }
        return ProductsResponse(
            storefront: storefront, products: found,
            invalidProductIdentifiers: invalid, unavailableInStorefront: unavailable)
    }

    /// Every identifier in the catalog, in catalog order: what `storefront products` asks for by default.
    public var allProductIds: [String] { products.map(\.id) }
}

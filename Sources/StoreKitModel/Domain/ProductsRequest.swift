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
        var found: [Product] = []
        found.reserveCapacity(ids.count)
        var invalid: [String] = []
        var unavailable: [String] = []
        answer(ids: ids, storefront: storefront.id) { id, answer in
            switch answer {
            case .sold(let position): found.append(products[position])
            case .unknownOrRemoved: invalid.append(id())
            case .notSold:
                invalid.append(id())
                unavailable.append(id())
            }
        }
        return ProductsResponse(
            storefront: storefront, products: found,
            invalidProductIdentifiers: invalid, unavailableInStorefront: unavailable)
    }

    /// What `request` would answer, in numbers, without the response: `ids` nil asks for every
    /// product (`allProductIds`), without making the list.
    public func requestCounts(ids: [String]?, storefront: Storefront) -> ProductsResponse.Counts {
        var counts = ProductsResponse.Counts(storefront: storefront)
        answer(ids: ids, storefront: storefront.id) { _, answer in
            switch answer {
            case .sold: counts.products += 1
            case .unknownOrRemoved: counts.invalidProductIdentifiers += 1
            case .notSold:
                counts.invalidProductIdentifiers += 1
                counts.unavailableInStorefront += 1
            }
        }
        return counts
    }

    /// How a products request answers one of its ids.
    private enum Answer {
        /// The product at this position in `products`.
        case sold(Int)
        case unknownOrRemoved, notSold
    }

    /// Goes through the request's ids (every product's, in catalog order, when nil) in order,
    /// each once, telling `answer` what becomes of it (the id is made only when asked for).
    private func answer(ids: [String]?, storefront: String, _ answer: (() -> String, Answer) -> Void) {
        // Every id in catalog order (what the UI and `storefront products` ask for), in a catalog
        // whose ids are unique (a decoded one always is; the index has one entry per id): each is
        // at its own position, so no set and no lookups are needed.
        guard
            let ids,
            !(ids.count == products.count && hasUniqueIds && ids.indices.allSatisfy { ids[$0] == products[$0].id })
        else {
            guard hasUniqueIds else { return self.answer(ids: allProductIds, storefront: storefront, answer) }
            for position in products.indices {
                answer({ products[position].id }, verdict(position, in: storefront))
            }
            return
        }
        var seen = Set<String>(minimumCapacity: ids.count)
        for id in ids where seen.insert(id).inserted {
            answer({ id }, position(of: id).map { verdict($0, in: storefront) } ?? .unknownOrRemoved)
        }
    }

    private func verdict(_ position: Int, in storefront: String) -> Answer {
        products[position].removed
            ? .unknownOrRemoved : products[position].isSold(in: storefront) ? .sold(position) : .notSold
    }

    /// Every identifier in the catalog, in catalog order: what `storefront products` asks for by default.
    public var allProductIds: [String] { products.map(\.id) }
}

extension ProductsResponse {
    /// The size of a products response (`Catalog.requestCounts`).
    public struct Counts: Sendable, Hashable {
        public let storefront: Storefront
        public internal(set) var products = 0
        public internal(set) var invalidProductIdentifiers = 0
        public internal(set) var unavailableInStorefront = 0

        public init(response: ProductsResponse) {
            storefront = response.storefront
            products = response.products.count
            invalidProductIdentifiers = response.invalidProductIdentifiers.count
            unavailableInStorefront = response.unavailableInStorefront.count
        }

        init(storefront: Storefront) {
            self.storefront = storefront
        }
    }
}

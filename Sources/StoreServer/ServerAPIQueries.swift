import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import StoreCore
import StoreKitModel

/// The query parameters of Get Transaction History and Get Refund History, read as Apple reads
/// them, and the `revision` token that carries a page's end to the next request.
struct HistoryQuery {
    static let pageSize = 20

    let filter: HistoryFilter
    let position: HistoryPosition?
    /// Binds a revision to the id and filters it was made for: Apple requires the same ones.
    let fingerprint: String

    /// `version`: 1 or 2 (1 leaves out finished consumables and takes `excludeRevoked`);
    /// 0 for refund history, which has no filters.
    init(_ parameters: FlatDictionary<Substring, Substring>, id: String, version: Int, catalog: Catalog) throws(AppStoreAPIError) {
        var filter = HistoryFilter(excludesFinishedConsumables: version == 1)
        if version == 0 {
            filter.revoked = true
        } else {
            try Self.readDates(parameters, into: &filter)
            filter.productIds = try Self.productIds(parameters, catalog: catalog)
            try Self.readFlags(parameters, version: version, into: &filter)
        }
        self.filter = filter
        var hasher = SHA256()
        hasher.update(data: Data("\(version)\n\(id)\n".utf8))
        for (key, value) in parameters.sorted(by: { ($0.key, $0.value) < ($1.key, $1.value) }) where key != "revision" {
            hasher.update(data: Data("\(key)=\(value)\n".utf8))
        }
        fingerprint = StoreService.hex(hasher.finalize().prefix(8))
        if let revision = parameters["revision"] {
            position = try Revision.decode(String(revision), fingerprint: fingerprint)
        } else {
            position = nil
        }
    }

    private static func readDates(_ parameters: FlatDictionary<Substring, Substring>, into filter: inout HistoryFilter) throws(AppStoreAPIError) {
        func date(_ name: String, _ code: AppStoreAPIError.Code) throws(AppStoreAPIError) -> Date? {
            guard let text = parameters[Substring(name)] else { return nil }
            guard let milliseconds = Int64(text), milliseconds >= 0 else { throw AppStoreAPIError(code, "Invalid \(name): \(text.prefix(40)) is not epoch milliseconds.") }
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        filter.startDate = try date("startDate", .invalidStartDate)
        filter.endDate = try date("endDate", .invalidEndDate)
        if let start = filter.startDate, let end = filter.endDate, start > end {
            throw AppStoreAPIError(.startDateAfterEndDate, "Invalid request. The start date is later than the end date.")
        }
    }

    /// The products the id, type and group filters leave (all must match); nil without any.
    private static func productIds(_ parameters: FlatDictionary<Substring, Substring>, catalog: Catalog) throws(AppStoreAPIError) -> Set<String>? {
        var allowed: Set<String>?
        func narrow(_ ids: some Sequence<String>) { allowed = allowed.map { $0.intersection(ids) } ?? Set(ids) }
        let ids = parameters[values: "productId"].map(String.init)
        if !ids.isEmpty {
            for id in ids where IdRules.productIdProblem(id) != nil {
                throw AppStoreAPIError(.invalidProductId, "Invalid product id: \(id.prefix(64)).")
            }
            narrow(ids)
        }
        let types = parameters[values: "productType"]
        if !types.isEmpty {
            var chosen: Set<ProductType> = []
            for type in types {
                guard let productType = Self.productTypes[String(type)] else {
                    throw AppStoreAPIError(.invalidProductType, "Invalid product type: \(type.prefix(40)); use AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE or NON_CONSUMABLE.")
                }
                chosen.insert(productType)
            }
            narrow(catalog.products.filter { chosen.contains($0.type) }.map(\.id))
        }
        let groups = parameters[values: "subscriptionGroupIdentifier"].map(String.init)
        if !groups.isEmpty {
            for group in groups where group.isEmpty || group.unicodeScalars.count > 255 {
                throw AppStoreAPIError(.invalidSubscriptionGroupIdentifier, "Invalid subscription group identifier.")
            }
            let chosen = Set(groups)
            narrow(catalog.products.filter { product in product.subscription?.group.map { chosen.contains($0) } ?? false }.map(\.id))
        }
        return allowed
    }

    private static let productTypes: [String: ProductType] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable, "NON_CONSUMABLE": .nonConsumable,
    ]

    private static func readFlags(_ parameters: FlatDictionary<Substring, Substring>, version: Int,
                                  into filter: inout HistoryFilter) throws(AppStoreAPIError) {
        switch parameters["sort"] {
        case nil, "ASCENDING": filter.descending = false
        case "DESCENDING": filter.descending = true
        case let other?: throw AppStoreAPIError(.invalidSort, "Invalid sort: \(other.prefix(40)); use ASCENDING or DESCENDING.")
        }
        switch parameters["inAppOwnershipType"] {
        case nil, "PURCHASED": break
        // Nothing is shared through Family Sharing here: no transaction is FAMILY_SHARED.
        case "FAMILY_SHARED": filter.productIds = []
        case let other?: throw AppStoreAPIError(.invalidInAppOwnershipType, "Invalid in-app ownership type: \(other.prefix(40)).")
        }
        if let revoked = parameters["revoked"] {
            // Apple's Python client sends str(bool): True or False.
            guard let value = Bool(revoked.lowercased()) else { throw AppStoreAPIError(.invalidRevoked, "Invalid revoked: use true or false.") }
            filter.revoked = value
        }
        if version == 1, let exclude = parameters["excludeRevoked"] {
            guard let value = Bool(exclude.lowercased()) else {
                throw AppStoreAPIError(.invalidExcludeRevoked, "Invalid excludeRevoked: use true or false.")
            }
            if value { filter.revoked = false }
        }
    }

    /// The revision to send back: where this page ended, or where the request started when it
    /// found nothing (so polling with it sees what arrives later).
    func revision(after page: HistoryPage) -> String {
        Revision.encode(page.last ?? position, fingerprint: fingerprint)
    }
}

/// A history page's end, opaque to clients: base64url of `fingerprint:modified:sequence`.
enum Revision {
    static func encode(_ position: HistoryPosition?, fingerprint: String) -> String {
        let text = position.map { "\(fingerprint):\($0.modified):\($0.sequence)" } ?? "\(fingerprint)::"
        return Base64URL.encode(Data(text.utf8))
    }

    static func decode(_ revision: String, fingerprint: String) throws(AppStoreAPIError) -> HistoryPosition? {
        guard revision.utf8.count <= 256, let data = Base64URL.decode(revision) else { throw AppStoreAPIError.invalidRevision }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == fingerprint else { throw AppStoreAPIError.invalidRevision }
        if parts[1].isEmpty && parts[2].isEmpty { return nil }
        guard let modified = Double(parts[1]), modified.isFinite, let sequence = Int64(parts[2]) else { throw AppStoreAPIError.invalidRevision }
        return HistoryPosition(modified: modified, sequence: sequence)
    }
}

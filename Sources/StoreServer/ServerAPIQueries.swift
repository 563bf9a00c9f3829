import Crypto
import Foundation
import Hummingbird
import HummingbirdCore
import ServerRecords
import StoreCore
import StoreEngine
import StoreKitModel
import StoreSigning

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
    init(_ parameters: FlatDictionary<Substring, Substring>, id: String, version: Int, catalog: Catalog)
        throws(AppStoreAPIError)
    {
        var filter = HistoryFilter(excludesFinishedConsumables: version == 1)
        if version == 0 {
            filter.revoked = true
        } else {
            try Self.readDates(parameters, into: &filter)
            filter.productIds = try Self.productIds(parameters, catalog: catalog)
            try Self.readFlags(parameters, version: version, into: &filter)
        }
        self.filter = filter
        fingerprint = PageToken.fingerprint(
            ["\(version)", id]
                + parameters.sorted { ($0.key, $0.value) < ($1.key, $1.value) }
                .filter { $0.key != "revision" }.map { "\($0.key)=\($0.value)" })
        if let revision = parameters["revision"] {
            position = try Revision.decode(String(revision), fingerprint: fingerprint)
        } else {
            position = nil
        }
    }

    private static func readDates(_ parameters: FlatDictionary<Substring, Substring>, into filter: inout HistoryFilter)
        throws(AppStoreAPIError)
    {
        func date(_ name: String, _ code: AppStoreAPIError.Code) throws(AppStoreAPIError) -> Date? {
            guard let text = parameters[Substring(name)] else { return nil }
            guard let milliseconds = Int64(text), milliseconds >= 0 else {
                throw AppStoreAPIError(code, "Invalid \(name): \(text.prefix(40)) is not epoch milliseconds.")
            }
            return Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        }
        filter.startDate = try date("startDate", .invalidStartDate)
        filter.endDate = try date("endDate", .invalidEndDate)
        if let start = filter.startDate, let end = filter.endDate, start > end {
            throw AppStoreAPIError(
                .startDateAfterEndDate, "Invalid request. The start date is later than the end date.")
        }
    }

    /// The products the id, type and group filters leave (all must match); nil without any.
    private static func productIds(_ parameters: FlatDictionary<Substring, Substring>, catalog: Catalog)
        throws(AppStoreAPIError) -> Set<String>?
    {
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
                    throw AppStoreAPIError(
                        .invalidProductType,
                        "Invalid product type: \(type.prefix(40)); use AUTO_RENEWABLE, NON_RENEWABLE, CONSUMABLE or NON_CONSUMABLE."
                    )
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
            narrow(
                catalog.products.filter { product in product.subscription?.group.map { chosen.contains($0) } ?? false }
                    .map(\.id))
        }
        return allowed
    }

    private static let productTypes: [String: ProductType] = [
        "AUTO_RENEWABLE": .autoRenewable, "NON_RENEWABLE": .nonRenewing, "CONSUMABLE": .consumable,
        "NON_CONSUMABLE": .nonConsumable,
    ]

    private static func readFlags(
        _ parameters: FlatDictionary<Substring, Substring>, version: Int,
        into filter: inout HistoryFilter
    ) throws(AppStoreAPIError) {
        switch parameters["sort"] {
        case nil, "ASCENDING": filter.descending = false
        case "DESCENDING": filter.descending = true
        case let other?:
            throw AppStoreAPIError(.invalidSort, "Invalid sort: \(other.prefix(40)); use ASCENDING or DESCENDING.")
        }
        if let ownership = parameters["inAppOwnershipType"] {
            guard let type = OwnershipType(rawValue: String(ownership)) else {
                throw AppStoreAPIError(
                    .invalidInAppOwnershipType, "Invalid in-app ownership type: \(ownership.prefix(40)).")
            }
            filter.ownership = type
        }
        if let revoked = parameters["revoked"] {
            // Apple's Python client sends str(bool): True or False.
            guard let value = Bool(revoked.lowercased()) else {
                throw AppStoreAPIError(.invalidRevoked, "Invalid revoked: use true or false.")
            }
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

/// Where a page ended, as Apple's paging hands it back (a history `revision`, a notification
/// history `paginationToken`), opaque to clients: base64url of `fingerprint:field:…`, where the
/// fingerprint binds it to the request it was made for.
enum PageToken {
    /// The first 8 bytes of the SHA-256 of the request's lines, in hex.
    static func fingerprint(_ lines: [String]) -> String {
        StoreService.hex(SHA256.hash(data: Data(lines.map { $0 + "\n" }.joined().utf8)).prefix(8))
    }

    static func encode(fingerprint: String, _ fields: [String]) -> String {
        Base64URL.encode(Data(([fingerprint] + fields).joined(separator: ":").utf8))
    }

    /// The token's fields; nil when it is not one made for this fingerprint with `count` fields.
    static func fields(_ token: String, fingerprint: String, count: Int) -> [Substring]? {
        guard token.utf8.count <= 256, let data = Base64URL.decode(token) else { return nil }
        let parts = String(decoding: data, as: UTF8.self).split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == count + 1, parts[0] == fingerprint else { return nil }
        return Array(parts.dropFirst())
    }
}

/// A history page's end: `modified:sequence` (both empty before the first page).
enum Revision {
    static func encode(_ position: HistoryPosition?, fingerprint: String) -> String {
        PageToken.encode(fingerprint: fingerprint, position.map { ["\($0.modified)", "\($0.sequence)"] } ?? ["", ""])
    }

    static func decode(_ revision: String, fingerprint: String) throws(AppStoreAPIError) -> HistoryPosition? {
        guard let fields = PageToken.fields(revision, fingerprint: fingerprint, count: 2) else {
            throw AppStoreAPIError.invalidRevision
        }
        if fields[0].isEmpty && fields[1].isEmpty { return nil }
        guard let modified = Double(fields[0]), modified.isFinite, let sequence = Int64(fields[1]) else {
            throw AppStoreAPIError.invalidRevision
        }
        return HistoryPosition(modified: modified, sequence: sequence)
    }
}

import Foundation
import JSONReading

/// Products read straight from the bytes. Parsing a product into a `JSONValue` tree and then
/// reading the tree cost most of a catalog's load time (the tree's arrays and strings, then paths,
/// sets and dictionaries to check it). A valid product, which is nearly every product, needs none
/// of that: its members are read as they come, its price table is found by its exact bytes, and
/// the checks are the ordinary ones, run on the values read.
///
/// The ordinary reading stays the reference. The direct one gives up on anything it is not sure
/// of (a key unknown or repeated, any problem at all, any syntax error) and the element is then
/// parsed and read the ordinary way, which says exactly what is wrong. So whatever this accepts,
/// the ordinary reading accepts as the same product with no problem: `DirectProductTests` and the
/// fuzzer compare the two on valid, reordered and broken catalogs.
extension ProductsDecoder {
    /// A product's members as written, in any order, before they are checked against each other.
    private struct Members {
        var id: String?
        var type: String?
        var title: LocalizedText?
        var description: LocalizedText?
        var unavailableIn: JSONValue?
        var removed: Bool?
        /// Where the price table's bytes are: it is looked up by them before anything is parsed.
        var prices: Range<Int>?
        /// The table read before that was written with the same bytes, if any.
        var pricesWritten: PriceTables.WrittenTable?
        var wallet: JSONValue?
        var subscription: JSONValue?
        var familyShareable: Bool?
        var offers: JSONValue?
    }

    /// `products[index]` read from the cursor, or nil, with the cursor anywhere, when it cannot be
    /// read directly (see above). Declining leaves no trace but valid price tables remembered,
    /// which read the same for any product.
    mutating func directProduct(_ cursor: inout Cursor, index: Int) -> Product? {
        // Taken out of `self` while it is in use, so checks can write to it while `self` is read.
        var check = scratch
        scratch = Validation()
        defer {
            check.discardProblems()
            scratch = check
        }
        guard let members = (try? readMembers(&cursor, check: &check)) ?? nil,
            let id = members.id, let typeName = members.type, let title = members.title,
            let description = members.description, let pricesWritten = members.prices,
            check.string(.string(id), JSONPath.root, maxLength: Product.maxIdLength) != nil, Self.isProductId(id),
            firstSeen[id] == nil,
            let type = Self.types.first(where: { $0.0 == typeName })?.1
        else { return nil }
        let unavailable = storefrontList(members.unavailableIn, .root, check: &check)
        guard
            let prices = members.pricesWritten?.prices(except: unavailable)
                ?? directPrices(cursor, pricesWritten, except: unavailable, check: &check)
        else { return nil }
        let wallet = walletGrant(members.wallet, .root, type: type, check: &check)
        let subscription = subscriptionInfo(
            members.subscription, .root, type: type, unavailable: unavailable, check: &check)
        let shareable = familyShareable(members.familyShareable.map(JSONValue.bool), .root, type: type, check: &check)
        let offers = codeOfferList(members.offers, .root, type: type, unavailable: unavailable, check: &check)
        guard check.problems.isEmpty, subscription != nil || !type.isSubscription, let offers else { return nil }
        firstSeen[id] = index
        return Product(
            id: id, type: type, title: title, description: description, prices: prices,
            unavailableIn: unavailable, removed: members.removed ?? false, wallet: wallet, subscription: subscription,
            familyShareable: shareable, codeOffers: offers)
    }

    /// Every member, each key known and written once; nil otherwise. A member already read is set
    /// (one that could not be read ends the reading), so a key written twice finds it set.
    private func readMembers(_ cursor: inout Cursor, check: inout Validation) throws(JSONSyntaxError) -> Members? {
        // Captured alone: capturing `self` copies the whole decoder each time.
        let (languages, tables) = (languages, priceTables)
        var members = Members()
        let complete = try cursor.readObject { (value: inout Cursor, key: WrittenKey) throws(JSONSyntaxError) -> Bool in
            switch key {
            case "id":
                guard members.id == nil else { return false }
                members.id = try value.readString()
                return members.id != nil
            case "type":
                guard members.type == nil else { return false }
                members.type = try value.readString()
                return members.type != nil
            case "title":
                guard members.title == nil else { return false }
                members.title = try Self.localized(
                    &value, languages: languages, maxLength: Self.maxTitle, multiline: false, check: &check)
                return members.title != nil
            case "description":
                guard members.description == nil else { return false }
                members.description = try Self.localized(
                    &value, languages: languages, maxLength: Self.maxDescription, multiline: true, check: &check)
                return members.description != nil
            case "removed":
                guard members.removed == nil else { return false }
                members.removed = value.readBool()
                return members.removed != nil
            case "familyShareable":
                guard members.familyShareable == nil else { return false }
                members.familyShareable = value.readBool()
                return members.familyShareable != nil
            case "unavailableIn":
                guard members.unavailableIn == nil else { return false }
                members.unavailableIn = try value.value()
            case "wallet":
                guard members.wallet == nil else { return false }
                members.wallet = try value.value()
            case "subscription":
                guard members.subscription == nil else { return false }
                members.subscription = try value.value()
            case "offers":
                guard members.offers == nil else { return false }
                members.offers = try value.value()
            case "prices":  // found by their bytes later, once unavailableIn is known
                guard members.prices == nil else { return false }
                let known = tables.written(at: value.index, in: value.bytes)
                guard let end = known.map({ value.index + $0.bytes.count }) ?? value.endOfContainer() else {
                    return false
                }
                (members.prices, members.pricesWritten) = (value.index..<end, known)
                value.index = end
            default:
                return false  // an unknown key: the tree reading reports it
            }
            return true
        }
        return complete ? members : nil
    }

    /// `check.localized`, read from the bytes: every one of the catalog's languages, each text valid.
    private static func localized(
        _ cursor: inout Cursor, languages: IdList, maxLength: Int, multiline: Bool, check: inout Validation
    ) throws(JSONSyntaxError) -> LocalizedText? {
        var values = [String: String](minimumCapacity: languages.ids.count)
        var covered = 0
        let complete = try cursor.readObject {
            (value: inout Cursor, key: WrittenKey) throws(JSONSyntaxError) -> Bool in
            // One of the catalog's languages is that string again; any other key is made one.
            guard let language = languages.ids.first(where: key.equals) ?? key.text,
                let text = try value.readString(),
                check.string(.string(text), JSONPath.root, maxLength: maxLength, multiline: multiline) != nil,
                values.updateValue(text, forKey: language) == nil
            else { return false }
            if languages.contains(language) { covered += 1 }
            return true
        }
        return complete && covered == languages.ids.count ? LocalizedText(values) : nil
    }

    /// The price table written at `range`: one written exactly like it before, or else parsed and
    /// read by `priceTable`, then remembered by its bytes.
    private func directPrices(
        _ cursor: Cursor, _ range: Range<Int>, except unavailable: Set<String>, check: inout Validation
    ) -> [String: Decimal]? {
        let written = UnsafeBufferPointer(rebasing: cursor.bytes[range])
        if let known = priceTables.table(written: written, except: unavailable) { return known }
        var reader = cursor
        reader.index = range.lowerBound
        guard let value = try? reader.value(), reader.index == range.upperBound,
            let prices = priceTable(value, .root, except: unavailable, check: &check), check.problems.isEmpty
        else { return nil }
        priceTables.remember(prices, written: written, except: unavailable)
        return prices
    }
}

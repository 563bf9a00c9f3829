import Foundation
import JSONReading

/// Reads a native catalog's products while the parser goes through them, each as soon as it is
/// parsed, so their tree never exists all at once. It starts only when the root's `format` comes
/// before `products` (the file is then certainly a native catalog) and reads them under the
/// languages, storefronts and groups written before `products`; `NativeCatalogDecoder.decode`
/// uses the result only if the whole file has the same ones, and otherwise the full tree is
/// decoded as usual. Either way the catalog and its problems are the same.
final class NativeProductStream: JSONElementSink {
    private(set) var began = false
    private(set) var languages: [String] = []
    private(set) var storefronts: [Storefront] = []
    private(set) var groups: [String] = []
    private(set) var reportedStorefronts: Set<String>? = []
    private var decoder = ProductsDecoder(languages: IdList([]), storefronts: [], groups: [])
    private var check = Validation()
    private var products: [Product] = []
    /// Each product's position by id, when the parts read in parallel built it.
    private var index: [String: Int]?
    private var count = 0
    /// How many of the products were read straight from the bytes.
    private(set) var directCount = 0
    private let mapped: MappedFile?
    private var pages: PageRelease?
    private let reading: CatalogLoader.ProductReading
    /// How many parts a large products array may be read in at once.
    private let cores: Int
    /// Whether the products were read in parts at once (see `ParallelProducts`).
    private(set) var readInParts = false

    init(
        mapped: MappedFile? = nil, reading: CatalogLoader.ProductReading = .direct,
        cores: Int = ProcessInfo.processInfo.activeProcessorCount
    ) {
        self.mapped = mapped
        pages = mapped.map { PageRelease($0) }
        self.reading = reading
        self.cores = cores
    }

    func consumed(upTo offset: Int) {
        pages?.advance(to: offset)
    }

    func begin(preceding: JSONObject) -> Bool {
        guard preceding["format"] != nil else { return false }
        var header = NativeCatalogDecoder()  // its problems are reported again by the real decode
        languages = header.readLanguages(preceding["languages"])
        storefronts = header.readStorefronts(preceding["storefronts"])
        reportedStorefronts = header.reportedStorefronts
        groups = header.readGroups(preceding["subscriptionGroups"], languages: IdList(languages)).map(\.id)
        decoder = ProductsDecoder(
            languages: IdList(languages), storefronts: storefronts, groups: groups,
            reportedStorefronts: reportedStorefronts)
        began = true
        return true
    }

    func element(_ value: JSONValue, at index: Int) {
        count += 1
        if let product = decoder.element(value, index: index, check: &check) { products.append(product) }
    }

    func element(reading cursor: inout Cursor, at index: Int) -> Bool {
        guard reading == .direct, let product = decoder.directProduct(&cursor, index: index) else { return false }
        count += 1
        directCount += 1
        products.append(product)
        return true
    }

    /// Every product at once, read in parts on all cores (see `ParallelProducts`), when each is
    /// valid and no id repeats; false leaves everything as it was, for the parser to go through
    /// the elements one by one.
    func elements(reading cursor: inout Cursor) -> Bool {
        guard reading == .direct,
            let whole = ParallelProducts.read(from: cursor, decoder: decoder, mapped: mapped, cores: cores)
        else { return false }
        readInParts = true
        products = whole.products
        index = whole.index
        count = products.count
        directCount = products.count
        cursor.index = whole.end
        return true
    }

    /// The products and their problems, as `ProductsDecoder.read` reports them; `value` is the
    /// empty array left in the tree.
    func take(_ value: JSONValue?, check outer: inout Validation) -> (products: [Product], index: [String: Int]) {
        guard outer.array(value, ProductsDecoder.path) != nil else { return ([], [:]) }
        if count == 0 { outer.report(ProductsDecoder.path, "is empty; a catalog needs at least one product") }
        outer.include(check.problems)
        return (products, index ?? decoder.firstSeen)
    }
}

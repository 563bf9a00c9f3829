import StoreKitModel

/// The catalog list: products from the products request, the filter typed with `/`, the
/// selection and the scroll position. Filtering is incremental: a longer query searches only
/// what the shorter one matched, so each keystroke costs less than the last; and the results of
/// the shorter queries are kept, so Backspace answers from them without searching again.
public struct ProductList: Sendable, Equatable {
    public private(set) var products: [Product] = []
    /// Each product's title in `language`, looked up once: a row reads it by position.
    public private(set) var titles: [String] = []
    /// Each product's description in `language`, for the rows' second line: read from one array,
    /// a row touches a string rather than a dictionary of its own (on a large catalog, cache misses).
    public private(set) var descriptions: [String] = []
    /// The language of `titles` and of the search keys.
    public private(set) var language = Language.english
    /// Each product's display price for `pricing`, formatted once per price point (see `reprice`).
    public internal(set) var displayPrices: [String] = []
    /// What `displayPrices` were formatted for; nil until `reprice`.
    public internal(set) var pricing: Pricing?
    /// Search keys: the lower-cased UTF-8 of each product's title (in the current language), a
    /// space and its id, one after another in a single buffer; product `i`'s key is
    /// `keyBytes[keyStarts[i]..<keyStarts[i + 1]]`.
    private var keyBytes: [UInt8] = []
    private var keyStarts: [Int] = [0]
    public private(set) var query = ""
    /// Indices into `products` matching `query`, in catalog order.
    public private(set) var visible: [Int] = []
    public var filtering = false
    public private(set) var selection = 0
    public private(set) var scroll = 0
    /// The lower-cased UTF-8 of `query`.
    private var needle: [UInt8] = []
    /// Whether `visible` is exactly what searching all products for `query` gives. It is unless a
    /// query was extended in a way that does not extend its lower-cased form (rare case mappings).
    private var exact = true
    /// Shorter queries typed on the way to `query`, each with its exact result, oldest first.
    private var earlier: [EarlierQuery] = []
    static let earlierLimit = 64

    public init() {}

    public init(products: [Product], language: Language) {
        self.products = products
        buildKeys(language: language)
        visible = Array(products.indices)
    }

    public var selected: Product? {
        visible.indices.contains(selection) ? products[visible[selection]] : nil
    }

    public var visibleProducts: some RandomAccessCollection<Product> {
        visible.lazy.map { products[$0] }
    }

    /// Same products in another language: titles are searched as shown.
    public mutating func relabel(language: Language) {
        buildKeys(language: language)
        let current = query
        query = ""
        needle = []
        exact = true
        earlier = []
        visible = Array(products.indices)
        setQuery(current)
    }

    public mutating func setQuery(_ newQuery: String) {
        let selectedIndex = visible.indices.contains(selection) ? visible[selection] : nil
        let newNeedle = Array(newQuery.lowercased().utf8)
        if newNeedle.isEmpty {
            visible = Array(products.indices)
            exact = true
            earlier = []
        } else if newQuery.hasPrefix(query) && !query.isEmpty {
            // Typing on: search what the shorter query matched.
            if exact {
                earlier.append(EarlierQuery(query: query, visible: visible))
                if earlier.count > Self.earlierLimit { earlier.removeFirst() }
            }
            let extendsNeedle = newNeedle.starts(with: needle)
            visible = matching(newNeedle, among: visible)
            exact = exact && extendsNeedle
            if !exact { earlier = [] }
        } else if let known = earlier.lastIndex(where: { $0.query == newQuery }) {
            // Back to a query typed before (Backspace): its result is already known.
            visible = earlier[known].visible
            earlier.removeSubrange(known...)
            exact = true
        } else {
            visible = matching(newNeedle, among: nil)
            exact = true
            earlier = []
        }
        query = newQuery
        needle = newNeedle
        // The same product stays selected if it still matches. Products in a list are unique (a
        // products response never repeats an id) and `visible` is in catalog order: a binary search.
        selection = selectedIndex.flatMap { position(of: $0) } ?? 0
        scroll = min(scroll, max(0, visible.count - 1))
    }

    public mutating func move(by delta: Int, page: Int) {
        guard !visible.isEmpty else {
            selection = 0
            return
        }
        selection = max(0, min(visible.count - 1, selection + delta))
        keepVisible(page: page)
    }

    public mutating func moveTo(_ index: Int, page: Int) {
        move(by: index - selection, page: page)
    }

    /// Scrolls so the selection is inside a window of `page` rows.
    public mutating func keepVisible(page: Int) {
        let page = max(1, page)
        if selection < scroll { scroll = selection }
        if selection >= scroll + page { scroll = selection - page + 1 }
        scroll = max(0, min(scroll, max(0, visible.count - page)))
    }

    private mutating func buildKeys(language: Language) {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        starts.reserveCapacity(products.count + 1)
        self.language = language
        titles = products.map { $0.title.text(in: language) }
        descriptions = products.map { $0.description.text(in: language) }
        for (product, title) in zip(products, titles) {
            Self.appendKey(title + " " + product.id, to: &bytes)
            starts.append(bytes.count)
        }
        keyBytes = bytes
        keyStarts = starts
    }

    /// Appends the lower-cased UTF-8 of `text`: ASCII directly, anything else through `lowercased()`.
    private static func appendKey(_ text: String, to bytes: inout [UInt8]) {
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
            for byte in text.utf8 { bytes.append(byte &+ (byte >= 0x41 && byte <= 0x5A ? 0x20 : 0)) }
        } else {
            bytes.append(contentsOf: text.lowercased().utf8)
        }
    }

    /// Where product `index` is in `visible`, if it is there.
    private func position(of index: Int) -> Int? {
        var low = 0
        var high = visible.count
        while low < high {
            let middle = (low + high) / 2
            if visible[middle] < index { low = middle + 1 } else { high = middle }
        }
        return low < visible.count && visible[low] == index ? low : nil
    }

    /// The products among `candidates` (all when nil) whose key contains `needle`, in order.
    private func matching(_ needle: [UInt8], among candidates: [Int]?) -> [Int] {
        var result: [Int] = []
        keyBytes.withUnsafeBufferPointer { keys in
            keyStarts.withUnsafeBufferPointer { starts in
                needle.withUnsafeBufferPointer { pin in
                    if let candidates {
                        for index in candidates where Self.contains(keys, starts[index]..<starts[index + 1], pin) {
                            result.append(index)
                        }
                    } else {
                        for index in 0..<(starts.count - 1)
                        where Self.contains(keys, starts[index]..<starts[index + 1], pin) {
                            result.append(index)
                        }
                    }
                }
            }
        }
        return result
    }

    /// Byte-wise substring search: lower-cased UTF-8 keeps CJK intact and avoids String overhead.
    private static func contains(
        _ keys: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, _ needle: UnsafeBufferPointer<UInt8>
    ) -> Bool {
        guard needle.count <= range.count, let first = needle.first else { return needle.isEmpty }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while index <= last {
            if keys[index] == first {
                var offset = 1
                while offset < needle.count && keys[index + offset] == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }
}

/// A shorter query typed on the way to the current one, with its exact result.
struct EarlierQuery: Sendable, Equatable {
    let query: String
    let visible: [Int]
}

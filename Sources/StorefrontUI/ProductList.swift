import StoreKitModel

/// The catalog list: products from the products request, the filter typed with `/`, the
/// selection and the scroll position. Filtering is incremental: a longer query searches only
/// what the shorter one matched, so each keystroke costs less than the last.
public struct ProductList: Sendable {
    public private(set) var products: [Product] = []
    /// Lower-cased UTF-8 of each product's title (in the current language) and id.
    private var keys: [[UInt8]] = []
    public private(set) var query = ""
    /// Indices into `products` matching `query`, in catalog order.
    public private(set) var visible: [Int] = []
    public var filtering = false
    public private(set) var selection = 0
    public private(set) var scroll = 0

    public init() {}

    public init(products: [Product], language: Language) {
        self.products = products
        keys = products.map { Self.key($0, language: language) }
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
        keys = products.map { Self.key($0, language: language) }
        let current = query
        query = ""
        visible = Array(products.indices)
        setQuery(current)
    }

    public mutating func setQuery(_ newQuery: String) {
        let selectedId = selected?.id
        let needle = Array(newQuery.lowercased().utf8)
        let base = newQuery.hasPrefix(query) && !query.isEmpty ? visible : Array(products.indices)
        visible = needle.isEmpty ? Array(products.indices) : base.filter { Self.contains(keys[$0], needle) }
        query = newQuery
        selection = selectedId.flatMap { id in visible.firstIndex { products[$0].id == id } } ?? 0
        scroll = min(scroll, max(0, visible.count - 1))
    }

    public mutating func move(by delta: Int, page: Int) {
        guard !visible.isEmpty else { selection = 0; return }
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

    private static func key(_ product: Product, language: Language) -> [UInt8] {
        Array((product.title.text(in: language) + " " + product.id).lowercased().utf8)
    }

    /// Byte-wise substring search: lower-cased UTF-8 keeps CJK intact and avoids String overhead.
    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var index = 0
        let last = haystack.count - needle.count
        return haystack.withUnsafeBufferPointer { hay in
            needle.withUnsafeBufferPointer { pin in
                while index <= last {
                    if hay[index] == first {
                        var offset = 1
                        while offset < pin.count && hay[index + offset] == pin[offset] { offset += 1 }
                        if offset == pin.count { return true }
                    }
                    index += 1
                }
                return false
            }
        }
    }
}

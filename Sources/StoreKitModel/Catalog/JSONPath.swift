/// A location inside a JSON document, printed the way people write it: `products[3].prices.JPN`,
/// and `top level` for the document itself.
struct JSONPath: Sendable, CustomStringConvertible {
    /// The path as written; empty for the document itself.
    private let text: String

    var description: String { text.isEmpty ? "top level" : text }

    static let root = JSONPath(text: "")

    func key(_ key: String) -> JSONPath {
        // Short plain keys as `.key`; anything else quoted and, when long, cut short like a value.
        let simple = !key.isEmpty && key.utf8.count <= 40 && key.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let component = simple ? key : "[\(quoted(key))]"
        if text.isEmpty { return JSONPath(text: component) }
        return JSONPath(text: simple ? "\(text).\(component)" : text + component)
    }

    func index(_ index: Int) -> JSONPath {
        JSONPath(text: "\(text)[\(index)]")
    }
}

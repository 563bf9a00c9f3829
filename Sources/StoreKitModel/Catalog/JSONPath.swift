/// A location inside a JSON document, printed the way people write it: `products[3].prices.JPN`.
struct JSONPath: Sendable, CustomStringConvertible {
    let description: String

    static let root = JSONPath(description: "")

    func key(_ key: String) -> JSONPath {
        let simple = !key.isEmpty && key.utf8.allSatisfy { byte in
            (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
        let component = simple ? key : "[\(quoted(key))]"
        if description.isEmpty { return JSONPath(description: component) }
        return JSONPath(description: simple ? "\(description).\(component)" : description + component)
    }

    func index(_ index: Int) -> JSONPath {
        JSONPath(description: "\(description)[\(index)]")
    }
}

import JSONReading

/// A location inside a JSON document, printed the way people write it: `products[3].prices.JPN`,
/// and `top level` for the document itself.
///
/// Decoders make a path for every value they read but print one only for a problem, so a path is
/// a chain of components and its text is built on demand. Public so that the server names a
/// place in a request body as a catalog's problems name a place in the file.
public struct JSONPath: Sendable, CustomStringConvertible {
    private enum Component: Sendable {
        case key(String)
        case index(Int)
    }

    private final class Node: Sendable {
        let parent: Node?
        let component: Component

        init(parent: Node?, component: Component) {
            self.parent = parent
            self.component = component
        }
    }

    private let node: Node?

    public static let root = JSONPath(node: nil)

    public func key(_ key: String) -> JSONPath {
        JSONPath(node: Node(parent: node, component: .key(key)))
    }

    public func index(_ index: Int) -> JSONPath {
        JSONPath(node: Node(parent: node, component: .index(index)))
    }

    public var description: String {
        var components: [Component] = []
        var current = node
        while let step = current {
            components.append(step.component)
            current = step.parent
        }
        var text = ""
        for component in components.reversed() {
            switch component {
            case .key(let key):
                // Short plain keys as `.key`; anything else quoted and, when long, cut short like a value.
                let simple =
                    !key.isEmpty && key.utf8.count <= 40
                    && key.utf8.allSatisfy { byte in
                        (0x30...0x39).contains(byte) || (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
                            || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
                    }
                let part = simple ? key : "[\(quoted(key))]"
                text = text.isEmpty ? part : simple ? "\(text).\(part)" : text + part
            case .index(let index):
                text = "\(text)[\(index)]"
            }
        }
        return text.isEmpty ? "top level" : text
    }
}

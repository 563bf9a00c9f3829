import JSONReading

/// Writes a `JSONValue` the way products.json is laid out: two-space indents, one member or
/// element per line, `": "` after keys, and `[]`/`{}` for empty containers.
struct PrettyJSONWriter {
    var bytes: [UInt8] = []
    private var depth = 0

    mutating func write(_ value: JSONValue) {
        switch value {
        case .object(let object):
            guard !object.members.isEmpty else {
                append("{}")
                return
            }
            append("{")
            depth += 1
            for (offset, member) in object.members.enumerated() {
                newline()
                string(member.key)
                append(": ")
                write(member.value)
                if offset < object.members.count - 1 { append(",") }
            }
            depth -= 1
            newline()
            append("}")
        case .array(let items):
            guard !items.isEmpty else {
                append("[]")
                return
            }
            append("[")
            depth += 1
            for (offset, item) in items.enumerated() {
                newline()
                write(item)
                if offset < items.count - 1 { append(",") }
            }
            depth -= 1
            newline()
            append("]")
        case .string(let text): string(text)
        case .number(let text): append(text)
        case .bool(let flag): append(flag ? "true" : "false")
        case .null: append("null")
        }
    }

    private mutating func append(_ text: String) {
        bytes.append(contentsOf: text.utf8)
    }

    private mutating func newline() {
        bytes.append(0x0A)
        bytes.append(contentsOf: repeatElement(0x20, count: depth * 2))
    }

    private mutating func string(_ text: String) {
        bytes.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): append("\\\"")
            case UInt8(ascii: "\\"): append("\\\\")
            case 0x0A: append("\\n")
            case 0x09: append("\\t")
            case 0x0D: append("\\r")
            case 0x00..<0x20:
                let hex = String(byte, radix: 16)
                append("\\u" + String(repeating: "0", count: 4 - hex.count) + hex)
            default: bytes.append(byte)
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}

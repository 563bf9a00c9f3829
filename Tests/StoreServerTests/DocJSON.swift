import JSONReading

/// JSON written as docs/openapi.json is: two-space indents, `": "` after a key, only quotes,
/// backslashes and control characters escaped (Python's `json.dumps(indent=2, ensure_ascii=False)`),
/// a newline at the end. A test rewrites the file with it, so a rewrite changes only what it means to.
enum DocJSON {
    static func text(_ value: JSONValue) -> String {
        var out = ""
        write(value, indent: 0, into: &out)
        return out + "\n"
    }

    private static func write(_ value: JSONValue, indent: Int, into out: inout String) {
        let inner = String(repeating: " ", count: indent + 2)
        switch value {
        case .object(let object):
            guard !object.members.isEmpty else {
                out += "{}"
                return
            }
            out += "{\n"
            for (index, member) in object.members.enumerated() {
                out += inner + quoted(member.key) + ": "
                write(member.value, indent: indent + 2, into: &out)
                out += index == object.members.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "}"
        case .array(let items):
            guard !items.isEmpty else {
                out += "[]"
                return
            }
            out += "[\n"
            for (index, item) in items.enumerated() {
                out += inner
                write(item, indent: indent + 2, into: &out)
                out += index == items.count - 1 ? "\n" : ",\n"
            }
            out += String(repeating: " ", count: indent) + "]"
        case .string(let text): out += quoted(text)
        case .number(let text): out += text
        case .bool(let on): out += on ? "true" : "false"
        case .null: out += "null"
        }
    }

    private static func quoted(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x22: out += "\\\""
            case 0x5C: out += "\\\\"
            case 0x0A: out += "\\n"
            case 0x0D: out += "\\r"
            case 0x09: out += "\\t"
            case 0x08: out += "\\b"
            case 0x0C: out += "\\f"
            case 0..<0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}

extension JSONValue {
    /// An object of these members, in this order.
    static func members(_ members: [(String, JSONValue)]) -> JSONValue {
        .object(JSONObject(members: members.map { (key: $0.0, value: $0.1) }))
    }

    /// The value at `path` (object keys), if every step is an object that has the key.
    func at(_ path: [String]) -> JSONValue? {
        guard let key = path.first else { return self }
        guard case .object(let object) = self else { return nil }
        return object[key]?.at(Array(path.dropFirst()))
    }

    /// This value with the one at `path` replaced, every member around it kept in its place.
    func replacing(_ path: [String], with value: JSONValue) -> JSONValue {
        guard let key = path.first else { return value }
        guard case .object(var object) = self,
            let index = object.members.firstIndex(where: { $0.key == key })
        else { return self }
        object.members[index].value = object.members[index].value.replacing(Array(path.dropFirst()), with: value)
        return .object(object)
    }
}

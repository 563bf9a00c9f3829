/// A parsed JSON document that keeps what validation needs and `JSONSerialization` loses:
/// numbers as their exact source text, object members in source order (duplicates included),
/// and where each value started, so problems can be reported precisely.
///
/// Not `indirect`: objects and arrays already keep their contents in heap storage, so a string or
/// a number is stored inline instead of in a box of its own (a catalog has millions of them).
public enum JSONValue: Sendable, Equatable {
    case object(JSONObject)
    case array([JSONValue])
    case string(String)
    /// The number exactly as written (`0.99`, `1e3`), never rounded through `Double`.
    case number(String)
    case bool(Bool)
    case null

    /// The JSON type name, for messages such as "expected a string, found an array".
    public var kindName: String {
        switch self {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}

/// Object members in source order. Lookups take the first member with a key; `duplicateKeys`
/// lists keys written more than once so a validator can report them instead of silently
/// keeping one.
public struct JSONObject: Sendable, Equatable {
    public var members: [(key: String, value: JSONValue)]

    public init(members: [(key: String, value: JSONValue)]) {
        self.members = members
    }

    public subscript(key: String) -> JSONValue? {
        members.first(where: { $0.key == key })?.value
    }

    public var keys: [String] { members.map(\.key) }

    public var duplicateKeys: [String] {
        // Catalog objects have a handful of members: comparing pairs beats hashing every key.
        if members.count <= 16 {
            var duplicates: [String] = []
            for index in members.indices.dropFirst() {
                let key = members[index].key
                if !duplicates.contains(key), members[..<index].contains(where: { $0.key == key }) {
                    duplicates.append(key)
                }
            }
            return duplicates
        }
        var seen = Set<String>()
        var reported = Set<String>()
        var duplicates: [String] = []
        for member in members where !seen.insert(member.key).inserted && reported.insert(member.key).inserted {
            duplicates.append(member.key)
        }
        return duplicates
    }

    public static func == (lhs: JSONObject, rhs: JSONObject) -> Bool {
        lhs.members.elementsEqual(rhs.members) { $0.key == $1.key && $0.value == $1.value }
    }
}

/// Reading values straight from the bytes, for a reader that builds its model without a
/// `JSONValue` tree (see `ProductsDecoder.directProduct`). Each returns nil or false where the
/// bytes are not what the reader expects; the reader then gives up, and the element is parsed
/// the ordinary way, which reports any syntax error with its location.
extension Cursor {
    /// The object at the cursor, member by member: `member` gets each key with the cursor at its
    /// value and reads the value (or returns false to give up). False for anything but an object,
    /// and for a trailing comma.
    package mutating func readObject(_ member: (inout Cursor, String) throws(JSONSyntaxError) -> Bool)
        throws(JSONSyntaxError) -> Bool
    {
        guard next(is: "{") else { return false }
        depth += 1
        defer { depth -= 1 }
        index += 1
        skipWhitespace()
        if next(is: "}") {
            index += 1
            return true
        }
        while true {
            guard next(is: "\"") else { return false }
            let key = try string()
            skipWhitespace()
            guard next(is: ":") else { return false }
            index += 1
            skipWhitespace()
            guard try member(&self, key) else { return false }
            skipWhitespace()
            if next(is: "}") {
                index += 1
                return true
            }
            guard next(is: ",") else { return false }
            index += 1
            skipWhitespace()
        }
    }

    /// The string at the cursor; nil when the value there is not a string.
    package mutating func readString() throws(JSONSyntaxError) -> String? {
        next(is: "\"") ? try string() : nil
    }

    /// `true` or `false` at the cursor; nil for anything else (the parser's own `literal` reads them).
    package mutating func readBool() -> Bool? {
        if next(is: "t") { return (try? literal("true")).map { true } }
        if next(is: "f") { return (try? literal("false")).map { false } }
        return nil
    }

    /// Where the object or array that starts at the cursor ends (just after its closing bracket),
    /// found by counting brackets outside strings. It does not check the syntax in between: use it
    /// only for bytes that are checked another way, such as comparing them with bytes that were.
    package func endOfContainer() -> Int? {
        guard next(is: "{") || next(is: "[") else { return nil }
        var level = 0
        var position = index
        var inString = false
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            if inString {
                if byte == UInt8(ascii: "\\") {
                    position += 1
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                continue
            }
            switch byte {
            case UInt8(ascii: "\""): inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["): level += 1
            case UInt8(ascii: "}"), UInt8(ascii: "]"):
                level -= 1
                if level == 0 { return position }
            default: break
            }
        }
        return nil
    }

    package func next(is scalar: Unicode.Scalar) -> Bool {
        index < bytes.count && bytes[index] == UInt8(scalar.value)
    }
}

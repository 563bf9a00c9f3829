import Foundation

/// Reading values straight from the bytes, for a reader that builds its model without a
/// `JSONValue` tree (see `ProductsDecoder.directProduct`). Each returns nil or false where the
/// bytes are not what the reader expects; the reader then gives up, and the element is parsed
/// the ordinary way, which reports any syntax error with its location.
extension Cursor {
    /// The object at the cursor, member by member: `member` gets each key with the cursor at its
    /// value and reads the value (or returns false to give up). False for anything but an object,
    /// and for a trailing comma.
    ///
    /// Keys come as written (`WrittenKey`), not as strings: a catalog has a dozen keys a product,
    /// and making a string of each and comparing it cost more than reading the values. A key with
    /// an escape or a control character gives up, since its bytes are not its text.
    package mutating func readObject(_ member: (inout Cursor, WrittenKey) throws(JSONSyntaxError) -> Bool)
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
            guard let key = writtenKey() else { return false }
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

    /// The key at the cursor, moving past it; nil when there is no string there or it holds a
    /// backslash or a control character.
    private mutating func writtenKey() -> WrittenKey? {
        guard next(is: "\"") else { return nil }
        var end = index + 1
        while end < bytes.count {
            switch bytes[end] {
            case UInt8(ascii: "\""):
                let key = WrittenKey(bytes: UnsafeBufferPointer(rebasing: bytes[index + 1..<end]))
                index = end + 1
                return key
            case UInt8(ascii: "\\"), 0x00..<0x20: return nil
            default: end += 1
            }
        }
        return nil
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

/// A member's key as written between its quotes, holding no escape or control character, for a
/// reader that matches keys without making a string of each (see `Cursor.readObject`).
package struct WrittenKey {
    package let bytes: UnsafeBufferPointer<UInt8>

    /// Whether the key is `text`: with no escape in it, its bytes are its text.
    package static func ~= (text: StaticString, key: WrittenKey) -> Bool {
        key.equals(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// Whether the key is `text`, a string known beforehand.
    package func equals(_ text: String) -> Bool {
        var text = text
        return text.withUTF8(equals)
    }

    /// Compared with memcmp: the generic `elementsEqual` goes byte by byte through iterators.
    private func equals(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        guard text.count == bytes.count, let left = text.baseAddress, let right = bytes.baseAddress else {
            return text.count == bytes.count
        }
        return memcmp(left, right, bytes.count) == 0
    }

    /// The key as a string; nil when it is not UTF-8 (the parser then says where it breaks).
    package var text: String? {
        String(validating: bytes, as: UTF8.self)
    }
}

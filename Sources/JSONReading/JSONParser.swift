/// Where a syntax problem is, in terms a person can find in an editor.
public struct SourceLocation: Sendable, Equatable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    package init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public var description: String { "line \(line), column \(column)" }
}

public struct JSONSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    public let location: SourceLocation
    public let message: String

    public var description: String { "\(location): \(message)" }
}

/// A strict RFC 8259 parser over UTF-8 bytes. It rejects what a catalog must not contain
/// (invalid UTF-8, NUL bytes, nesting deeper than `maxDepth`) with a line and column, and
/// never traps on any input.
public struct JSONParser {
    public static let maxDepth = 256

    /// What the parsed text is, as the messages name it.
    public enum Text: Sendable {
        /// A catalog file (the default).
        case file
        /// A request's body, on the server.
        case requestBody

        var name: String { self == .file ? "the file" : "the body" }
        var end: String { self == .file ? "end of file" : "end of the body" }
    }

    public static func parse(_ bytes: [UInt8], as text: Text = .file) throws(JSONSyntaxError) -> JSONValue {
        try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
            var parser = Cursor(bytes: buffer)
            parser.text = text
            return try parser.document()
        }
    }

    public static func parse(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try parse(Array(text.utf8))
    }

    /// Like `parse(_:)`, but the elements of the array in the root object's first member named
    /// `key` go to `sink` one by one as they are parsed, when `sink.begin` accepts them; that
    /// member is then an empty array in the tree. A large catalog's products need not all be in
    /// memory as a tree at once. Syntax errors are exactly those of `parse(_:)`.
    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>, streaming key: String, to sink: any JSONElementSink)
        throws(JSONSyntaxError) -> JSONValue
    {
        var parser = Cursor(bytes: bytes)
        parser.stream = (key, sink)
        return try parser.document()
    }

    package static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        var parser = Cursor(bytes: bytes)
        return try parser.document()
    }
}

/// Receives the elements of one array as the parser reads them (see `JSONParser.parse(_:streaming:to:)`).
package protocol JSONElementSink: AnyObject {
    /// The array begins; `preceding` are the root object's members before it. False keeps its
    /// elements in the tree instead.
    func begin(preceding: JSONObject) -> Bool
    func element(_ value: JSONValue, at index: Int)
    /// Reads the element at the cursor straight from the bytes, without its tree, if it can; false
    /// when it cannot, and the parser then reads the element into a tree for `element(_:at:)` as
    /// usual (from where it began, so what this read does not count).
    func element(reading cursor: inout Cursor, at index: Int) -> Bool
    /// Reads every element at once, from the first (at the cursor) through the closing bracket,
    /// if it can; false when it cannot, and the parser then goes through them one by one.
    func elements(reading cursor: inout Cursor) -> Bool
    /// The parser is done with every byte before `offset` (the element just sent ended there).
    func consumed(upTo offset: Int)
}

package struct Cursor {
    package let bytes: UnsafeBufferPointer<UInt8>
    package var index = 0
    package var depth = 0
    /// Reused buffers, one per nesting level: members and elements are collected here and copied
    /// once into storage of the exact size, instead of growing a new array step by step.
    private var memberBuffers: [[(key: String, value: JSONValue)]] = []
    private var elementBuffers: [[JSONValue]] = []
    /// What the text is, for messages.
    package var text = JSONParser.Text.file
    /// The root member whose array elements go to a sink, and whether it has been met.
    package var stream: (key: String, sink: any JSONElementSink)?
    private var streamMet = false

    package init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    package mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }  // a UTF-8 byte-order mark is harmless
        skipWhitespace()
        guard index < bytes.count else {
            throw failure(
                bytes.isEmpty
                    ? "\(text.name) is empty; expected a JSON object"
                    : "no JSON value; \(text.name) holds only whitespace")
        }
        let value = try value()
        skipWhitespace()
        guard index == bytes.count else {
            throw failure("unexpected \(describeCurrent()) after the end of the JSON value")
        }
        return value
    }

    /// A value; `container` is the innermost open object or array, named when the file ends here.
    package mutating func value(in container: (kind: String, opened: Int)? = nil) throws(JSONSyntaxError) -> JSONValue {
        guard index < bytes.count else {
            guard let container else {
                throw failure("unexpected \(text.end); expected a value (\(text.name) looks truncated)")
            }
            throw unclosed(container.kind, container.opened, expecting: "a value")
        }
        switch bytes[index] {
        case UInt8(ascii: "{"): return try nested { (c: inout Cursor) throws(JSONSyntaxError) in try c.object() }
        case UInt8(ascii: "["): return try nested { (c: inout Cursor) throws(JSONSyntaxError) in try c.array() }
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"):
            try literal("true")
            return .bool(true)
        case UInt8(ascii: "f"):
            try literal("false")
            return .bool(false)
        case UInt8(ascii: "n"):
            try literal("null")
            return .null
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return .number(try number())
        case let byte:
            let hint =
                isLetter(byte)
                ? " (strings need double quotes; the only words JSON knows are true, false and null)" : ""
            throw failure("unexpected \(describeCurrent()); expected a value\(hint)")
        }
    }

    package mutating func nested(_ body: (inout Cursor) throws(JSONSyntaxError) -> JSONValue) throws(JSONSyntaxError)
        -> JSONValue
    {
        depth += 1
        guard depth <= JSONParser.maxDepth else {
            throw failure("nesting deeper than \(JSONParser.maxDepth) levels")
        }
        defer { depth -= 1 }
        return try body(&self)
    }

    package mutating func object() throws(JSONSyntaxError) -> JSONValue {
        let opened = index  // a byte offset: turned into a line and column only on error
        index += 1
        skipWhitespace()
        if try peek(closing: "}", opened: opened) { return .object(JSONObject(members: [])) }
        let level = depth  // a failure deeper down may leave `depth` raised while this unwinds
        while memberBuffers.count <= level { memberBuffers.append([]) }
        var members = memberBuffers[level]
        memberBuffers[level] = []
        defer {
            members.removeAll(keepingCapacity: true)
            memberBuffers[level] = members
        }
        while true {
            skipWhitespace()
            guard index < bytes.count else { throw unclosed("object", opened) }
            guard bytes[index] == UInt8(ascii: "\"") else {
                throw failure("unexpected \(describeCurrent()); expected a member name in double quotes")
            }
            let key = try string()
            skipWhitespace()
            try expect(":", context: "after the member name \(quoted(key))", opened: opened, container: "object")
            skipWhitespace()
            if level == 1, !streamMet, let stream, key == stream.key {
                streamMet = true  // only the first member with that name: the one a lookup finds
                if index < bytes.count, bytes[index] == UInt8(ascii: "["),
                    stream.sink.begin(preceding: JSONObject(members: exactCopy(members)))
                {
                    members.append(
                        (
                            key,
                            try nested { (c: inout Cursor) throws(JSONSyntaxError) in try c.array(sink: stream.sink) }
                        ))
                    skipWhitespace()
                    if try separatorOrEnd(closing: "}", opened: opened, container: "object") {
                        return .object(JSONObject(members: exactCopy(members)))
                    }
                    continue
                }
            }
            members.append((key, try value(in: ("object", opened))))
            skipWhitespace()
            if try separatorOrEnd(closing: "}", opened: opened, container: "object") {
                return .object(JSONObject(members: exactCopy(members)))
            }
        }
    }

    /// An array; with a `sink`, each element goes there instead of into the (then empty) array.
    package mutating func array(sink: (any JSONElementSink)? = nil) throws(JSONSyntaxError) -> JSONValue {
        let opened = index  // a byte offset: turned into a line and column only on error
        index += 1
        skipWhitespace()
        if try peek(closing: "]", opened: opened) { return .array([]) }
        if let sink {
            let (start, level) = (index, depth)
            if sink.elements(reading: &self) { return .array([]) }
            (index, depth) = (start, level)
            var count = 0
            while true {
                skipWhitespace()
                let (start, level) = (index, depth)
                if !sink.element(reading: &self, at: count) {
                    (index, depth) = (start, level)
                    sink.element(try value(in: ("array", opened)), at: count)
                }
                sink.consumed(upTo: index)
                count += 1
                skipWhitespace()
                if try separatorOrEnd(closing: "]", opened: opened, container: "array") { return .array([]) }
            }
        }
        let level = depth  // a failure deeper down may leave `depth` raised while this unwinds
        while elementBuffers.count <= level { elementBuffers.append([]) }
        var elements = elementBuffers[level]
        elementBuffers[level] = []
        defer {
            elements.removeAll(keepingCapacity: true)
            elementBuffers[level] = elements
        }
        while true {
            skipWhitespace()
            elements.append(try value(in: ("array", opened)))
            skipWhitespace()
            if try separatorOrEnd(closing: "]", opened: opened, container: "array") {
                return .array(exactCopy(elements))
            }
        }
    }

    /// A copy in storage of exactly its size (`Array(items)` would share the buffer being reused).
    package func exactCopy<T>(_ items: [T]) -> [T] {
        [T](unsafeUninitializedCapacity: items.count) { buffer, count in
            count = buffer.initialize(fromContentsOf: items)
        }
    }

    /// After a member or element: `,` continues (false), the closing bracket ends (true).
    package mutating func separatorOrEnd(closing: Unicode.Scalar, opened: Int, container: String)
        throws(JSONSyntaxError) -> Bool
    {
        guard index < bytes.count else { throw unclosed(container, opened) }
        switch bytes[index] {
        case UInt8(ascii: ","):
            index += 1
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(closing.value) {
                throw failure("trailing comma before '\(closing)'; JSON does not allow one")
            }
            return false
        case UInt8(closing.value):
            index += 1
            return true
        default:
            throw failure(
                "unexpected \(describeCurrent()); expected ',' or '\(closing)' in the \(container) opened at \(location(of: opened))"
            )
        }
    }

    package mutating func peek(closing: Unicode.Scalar, opened: Int) throws(JSONSyntaxError) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(closing.value) else { return false }
        index += 1
        return true
    }

    /// `context` is built only for the message: it is not paid for on every member.
    package mutating func expect(
        _ scalar: Unicode.Scalar, context: @autoclosure () -> String, opened: Int, container: String
    ) throws(JSONSyntaxError) {
        guard index < bytes.count else { throw unclosed(container, opened) }
        guard bytes[index] == UInt8(scalar.value) else {
            throw failure("unexpected \(describeCurrent()); expected '\(scalar)' \(context())")
        }
        index += 1
    }

    package mutating func literal(_ word: StaticString) throws(JSONSyntaxError) {
        let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard bytes.count - index >= expected.count,
            UnsafeBufferPointer(rebasing: bytes[index..<index + expected.count]).elementsEqual(expected)
        else {
            // "tru" at the very end is a cut-off file, not a misspelling.
            let rest = UnsafeBufferPointer(rebasing: bytes[index...])
            if rest.count < expected.count, rest.elementsEqual(expected.prefix(rest.count)) {
                throw JSONSyntaxError(
                    location: location(of: bytes.count),
                    message: "unexpected \(text.end) inside '\(word)' (\(text.name) looks truncated)")
            }
            throw failure("unexpected \(describeCurrent()); expected a value (strings need double quotes)")
        }
        index += expected.count
    }

    package mutating func number() throws(JSONSyntaxError) -> String {
        let start = index
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs digits after '-'") }
        if bytes[index] == UInt8(ascii: "0"), index + 1 < bytes.count, isDigit(bytes[index + 1]) {
            throw failure("numbers must not have leading zeros")
        }
        skipDigits()
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard index < bytes.count, isDigit(bytes[index]) else { throw failure("a number needs digits after '.'") }
            skipDigits()
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                index += 1
            }
            guard index < bytes.count, isDigit(bytes[index]) else {
                throw failure("a number needs digits in its exponent")
            }
            skipDigits()
        }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<index]), as: UTF8.self)
    }

    package mutating func skipDigits() {
        while index < bytes.count, isDigit(bytes[index]) { index += 1 }
    }

    package func isDigit(_ byte: UInt8) -> Bool { byte >= 0x30 && byte <= 0x39 }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }

    /// The file ends inside `container`; `expecting` names what should have come next, if anything specific.
    package func unclosed(_ container: String, _ opened: Int, expecting: String? = nil) -> JSONSyntaxError {
        let expected = expecting.map { " where \($0) was expected" } ?? ""
        return failure(
            "unexpected \(text.end)\(expected): the \(container) opened at \(location(of: opened)) is never closed (\(text.name) looks truncated)"
        )
    }

    package func failure(_ message: String) -> JSONSyntaxError {
        JSONSyntaxError(location: location(of: index), message: message)
    }

    package func location(of offset: Int) -> SourceLocation {
        var line = 1
        // A UTF-8 byte-order mark is invisible in an editor: columns on the first line start after it.
        var lineStart = bytes.starts(with: [0xEF, 0xBB, 0xBF]) && offset >= 3 ? 3 : 0
        for position in 0..<min(offset, bytes.count) where bytes[position] == 0x0A {
            line += 1
            lineStart = position + 1
        }
        // Columns count characters, not bytes, so they match an editor's.
        let column =
            String(decoding: UnsafeBufferPointer(rebasing: bytes[lineStart..<min(offset, bytes.count)]), as: UTF8.self)
            .count + 1
        return SourceLocation(line: line, column: column)
    }

    package func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A }

    /// The character at `index`, for "unexpected …": ASCII as itself, other UTF-8 characters with
    /// their code point (a typographic quote pasted from a document is a common mistake), and bytes
    /// that are not UTF-8 by value.
    package func describeCurrent() -> String {
        let byte = bytes[index]
        switch byte {
        case 0x00: return "NUL byte (\(text.name) looks binary)"
        case 0x20: return "a space"
        case 0x21...0x7E: return "'\(Character(Unicode.Scalar(byte)))'"
        case 0x80...:
            guard let scalar = scalar(at: index) else { return "byte 0x\(hex(byte)) (\(text.name) is not UTF-8 text)" }
            let code = "U+" + String(repeating: "0", count: max(0, 4 - hex(scalar.value).count)) + hex(scalar.value)
            switch scalar.value {
            case 0x201C, 0x201D, 0x201E, 0x2018, 0x2019, 0x00AB, 0x00BB:
                return "typographic quote '\(scalar)' (\(code); JSON needs straight quotes \")"
            case 0xFEFF: return "byte-order mark (\(code))"
            default:
                if scalar.properties.isWhitespace || scalar.properties.generalCategory == .format
                    || isControlOrLineBreak(scalar)
                {
                    return "invisible character \(code)"
                }
                return "'\(scalar)' (\(code))"
            }
        default: return "control character 0x\(hex(byte))"
        }
    }

    /// The Unicode scalar encoded in UTF-8 at `offset`, or nil when the bytes there are not UTF-8.
    package func scalar(at offset: Int) -> Unicode.Scalar? {
        let length =
            switch bytes[offset] {
            case 0xC2...0xDF: 2
            case 0xE0...0xEF: 3
            case 0xF0...0xF4: 4
            default: 0
            }
        guard length > 0, offset + length <= bytes.count else { return nil }
        return String(validating: UnsafeBufferPointer(rebasing: bytes[offset..<offset + length]), as: UTF8.self)?
            .unicodeScalars.first
    }

    package func hex<T: BinaryInteger>(_ value: T) -> String { String(value, radix: 16, uppercase: true) }
}

extension JSONParser {
    /// The line and column of byte `offset` in `bytes`, counted as `parse` counts them.
    public static func location(ofByte offset: Int, in bytes: [UInt8]) -> SourceLocation {
        bytes.withUnsafeBufferPointer { location(ofByte: offset, in: $0) }
    }

    package static func location(ofByte offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> SourceLocation {
        Cursor(bytes: bytes).location(of: offset)
    }
}

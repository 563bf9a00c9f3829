extension Cursor {
    /// A string literal: the fast path takes a run without escapes as one string; escapes and
    /// invalid UTF-8 are handled on the slow path with a precise location.
    package mutating func string() throws(JSONSyntaxError) -> String {
        let opened = index
        index += 1
        let start = index
        var bits = skipPlainWords()  // every byte OR-ed: below 0x80 means the run is ASCII
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                let text = try run(from: start, ascii: bits < 0x80)
                index += 1
                return text
            }
            if byte == UInt8(ascii: "\\") || byte < 0x20 { break }
            bits |= byte
            index += 1
        }
        var result = ""
        var runStart = start
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                try appendRun(from: runStart, to: &result)
                index += 1
                return result
            case UInt8(ascii: "\\"):
                try appendRun(from: runStart, to: &result)
                try escape(into: &result)
                runStart = index
            case 0x00..<0x20:
                throw failure(byte == 0 ? "NUL byte inside a string (\(text.name) looks binary)" : unescaped(byte))
            default:
                index += 1
            }
        }
        throw JSONSyntaxError(
            location: location(of: opened),
            message: "unexpected \(text.end) inside the string that starts here (\(text.name) looks truncated)")
    }

    /// Moves past the bytes of the string that are eight at a time neither a quote, a backslash
    /// nor a control character (any of which ends the fast path's run), which leaves the byte
    /// loop only the last few bytes; returns their high bits OR-ed (0x80 unless they are ASCII).
    private mutating func skipPlainWords() -> UInt8 {
        guard let base = bytes.baseAddress else { return 0 }
        let raw = UnsafeRawPointer(base)
        var seen: UInt64 = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if Self.mayEndRun(word) { break }
            seen |= word
            index += 8
        }
        return ByteWord.nonASCII(in: seen) == 0 ? 0 : 0x80
    }

    /// Whether a byte of `word` may be a quote, a backslash or below 0x20.
    private static func mayEndRun(_ word: UInt64) -> Bool {
        ByteWord.equal(to: UInt8(ascii: "\""), in: word) | ByteWord.equal(to: UInt8(ascii: "\\"), in: word)
            | ByteWord.below(0x20, in: word) != 0
    }

    /// A raw control character in a string, with the escape to write instead.
    private func unescaped(_ byte: UInt8) -> String {
        let (name, escape) =
            switch byte {
            case 0x0A: (" (a line break)", "\\n")
            case 0x09: (" (a tab)", "\\t")
            case 0x0D: (" (a carriage return)", "\\r")
            default: ("", "\\u00" + (byte < 0x10 ? "0" : "") + String(byte, radix: 16, uppercase: true))
            }
        return
            "unescaped control character 0x\(String(byte, radix: 16, uppercase: true))\(name) inside a string; write it as \(escape)"
    }

    private func appendRun(from start: Int, to result: inout String) throws(JSONSyntaxError) {
        guard start < index else { return }
        result += try run(from: start, ascii: false)
    }

    /// The bytes from `start` to `index` as a string, refusing invalid UTF-8. (Validating once
    /// with UTF8Span and copying is cheaper than the generic String(validating:).)
    private func run(from start: Int, ascii: Bool) throws(JSONSyntaxError) -> String {
        let run = UnsafeBufferPointer(rebasing: bytes[start..<index])
        // ASCII is valid UTF-8: copied as it is, not checked again as `String(decoding:)` would.
        if ascii { return String(copying: UTF8Span(unchecked: run.span, isKnownASCII: true)) }
        do {
            return String(copying: try UTF8Span(validating: run.span))
        } catch {
            throw JSONSyntaxError(
                location: location(of: firstInvalidUTF8(in: start..<index)),
                message: "invalid UTF-8 inside a string (\(text.name) is not UTF-8 text)")
        }
    }

    private func firstInvalidUTF8(in range: Range<Int>) -> Int {
        var position = range.lowerBound
        while position < range.upperBound {
            var end = position + 1
            while end <= range.upperBound, end - position <= 4 {
                if String(validating: UnsafeBufferPointer(rebasing: bytes[position..<end]), as: UTF8.self) != nil {
                    break
                }
                end += 1
            }
            if end > range.upperBound || end - position > 4 { return position }
            position = end
        }
        return range.lowerBound
    }

    private mutating func escape(into result: inout String) throws(JSONSyntaxError) {
        index += 1
        guard index < bytes.count else { throw failure("unexpected \(text.end) after '\\'") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): result += "\""
        case UInt8(ascii: "\\"): result += "\\"
        case UInt8(ascii: "/"): result += "/"
        case UInt8(ascii: "b"): result += "\u{08}"
        case UInt8(ascii: "f"): result += "\u{0C}"
        case UInt8(ascii: "n"): result += "\n"
        case UInt8(ascii: "r"): result += "\r"
        case UInt8(ascii: "t"): result += "\t"
        case UInt8(ascii: "u"): result.unicodeScalars.append(try unicodeEscape())
        default:
            index -= 1
            // The byte after the backslash may be anything; only printable ASCII is shown as itself.
            let escape =
                (0x21...0x7E).contains(byte)
                ? "'\\\(Character(Unicode.Scalar(byte)))'" : "'\\' followed by \(describeCurrent())"
            throw failure("invalid escape \(escape) in a string")
        }
    }

    /// `\uXXXX`, joining a UTF-16 surrogate pair written as two escapes.
    private mutating func unicodeEscape() throws(JSONSyntaxError) -> Unicode.Scalar {
        let high = try hexQuad()
        if (0xD800..<0xDC00).contains(high) {
            guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
            else {
                throw failure("a high surrogate \\u\(String(high, radix: 16)) must be followed by a low surrogate")
            }
            index += 2
            let low = try hexQuad()
            guard (0xDC00..<0xE000).contains(low),
                let scalar = Unicode.Scalar(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))
            else {
                throw failure("\\u\(String(low, radix: 16)) is not a low surrogate")
            }
            return scalar
        }
        guard let scalar = Unicode.Scalar(high) else {
            throw failure("\\u\(String(high, radix: 16)) is a lone low surrogate")
        }
        return scalar
    }

    private mutating func hexQuad() throws(JSONSyntaxError) -> UInt32 {
        guard bytes.count - index >= 4 else { throw failure("unexpected \(text.end) in a \\u escape") }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[index]
            let digit: UInt8
            switch byte {
            case 0x30...0x39: digit = byte - 0x30
            case 0x41...0x46: digit = byte - 0x41 + 10
            case 0x61...0x66: digit = byte - 0x61 + 10
            default: throw failure("\\u needs four hexadecimal digits")
            }
            value = value << 4 | UInt32(digit)
            index += 1
        }
        return value
    }
}

/// Renders a value for a message: quoted, with control characters and line breaks escaped so the
/// message stays on one line, and bidirectional and invisible characters escaped so it shows as
/// written (the style of CellGrid's `TerminalText.escaped`: `\n`, `\u{202E}`), and cut short
/// after `limit` characters with the text's size in bytes.
/// It cuts between characters (grapheme clusters), never inside an emoji or a letter with its
/// accents, and reads only the characters it shows, so a 50 MB string costs no more than a short one.
package func quoted(_ text: String, limit: Int = 40) -> String {
    var shown = ""
    var index = text.startIndex
    var count = 0
    var scan = UnprintableScan()
    while index < text.endIndex, count < limit {
        let next = text.index(after: index)
        // One character can be huge (a letter carrying thousands of combining marks): cut before it.
        if text.utf8.distance(from: index, to: next) > maxQuotedCharacterBytes { break }
        for scalar in text.unicodeScalars[index..<next] {
            appendEscaped(scalar, unprintable: scan.isUnprintable(scalar), to: &shown)
        }
        index = next
        count += 1
    }
    guard index < text.endIndex else { return "\"\(shown)\"" }
    return "\"\(shown)…\" (\(text.utf8.count) bytes)"
}

/// Longer than any real character (a family emoji with skin tones is 41 bytes).
private let maxQuotedCharacterBytes = 128

private func appendEscaped(_ scalar: Unicode.Scalar, unprintable: Bool, to shown: inout String) {
    switch scalar {
    case "\"": shown += "\\\""
    case "\n": shown += "\\n"
    case "\r": shown += "\\r"
    case "\t": shown += "\\t"
    default:
        if unprintable {
            shown += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
        } else {
            shown.unicodeScalars.append(scalar)
        }
    }
}

/// C0 and C1 control characters, DEL, and the Unicode line and paragraph separators: none of them
/// belongs in a line of text.
package func isControlOrLineBreak(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x00..<0x20, 0x7F...0x9F, 0x2028, 0x2029: true
    default: false
    }
}

/// One line of a tape, read left to right, with the column of what it read for messages.
struct LineScanner {
    private let characters: [Character]
    private var index = 0
    let line: Int
    /// The column of the line's first character.
    private let origin: Int

    init(_ text: String, line: Int, column: Int) {
        characters = Array(text)
        self.line = line
        origin = column
    }

    var column: Int { origin + index }
    var atEnd: Bool {
        var probe = index
        while probe < characters.count, characters[probe] == " " || characters[probe] == "\t" { probe += 1 }
        return probe == characters.count
    }

    func problem(_ message: String, at column: Int? = nil) -> TapeProblem {
        TapeProblem(line: line, column: column ?? self.column, message: message)
    }

    private mutating func skipBlanks() {
        while index < characters.count, characters[index] == " " || characters[index] == "\t" { index += 1 }
    }

    /// The next run of non-blank characters ("" at the end), and its column.
    mutating func word() -> (String, Int) {
        skipBlanks()
        let start = index
        while index < characters.count, characters[index] != " ", characters[index] != "\t" { index += 1 }
        return (String(characters[start..<index]), origin + start)
    }

    /// A word or a quoted string.
    mutating func argument(_ what: String) throws -> String {
        skipBlanks()
        guard index < characters.count else { throw problem("expected \(what)") }
        if "\"'`".contains(characters[index]) { return try quoted() }
        return word().0
    }

    /// "text", 'text' or `text`, as VHS takes them; no escapes inside.
    mutating func quoted() throws -> String {
        skipBlanks()
        guard index < characters.count, "\"'`".contains(characters[index]) else {
            throw problem("expected text in quotes (\"…\", '…' or `…`)")
        }
        let quote = characters[index]
        let start = column
        index += 1
        let begin = index
        while index < characters.count, characters[index] != quote { index += 1 }
        guard index < characters.count else {
            throw problem("the text opened at column \(start) has no closing \(quote)", at: start)
        }
        defer { index += 1 }
        return String(characters[begin..<index])
    }

    /// /regex/, where `\/` stands for a slash.
    mutating func regex() throws -> (String, Int) {
        skipBlanks()
        guard index < characters.count, characters[index] == "/" else {
            throw problem("expected a /regular expression/")
        }
        let start = column
        index += 1
        var pattern = ""
        while index < characters.count, characters[index] != "/" {
            if characters[index] == "\\", index + 1 < characters.count, characters[index + 1] == "/" {
                pattern.append("/")
                index += 2
                continue
            }
            pattern.append(characters[index])
            index += 1
        }
        guard index < characters.count else {
            throw problem("the regular expression opened at column \(start) has no closing /", at: start)
        }
        index += 1
        guard !pattern.isEmpty else { throw problem("the regular expression is empty", at: start) }
        return (pattern, start + 1)
    }

    /// 500ms, 2s, 1.5s, or a number of seconds.
    mutating func duration() throws -> Int {
        let (text, start) = word()
        guard !text.isEmpty else { throw problem("expected a duration (500ms, 2s)") }
        guard let value = Self.milliseconds(text) else {
            throw problem("\(text) is not a duration (500ms, 2s, 1.5)", at: start)
        }
        return value
    }

    /// A repeat count or a size: a whole number from 1.
    mutating func count() throws -> Int {
        let (text, start) = word()
        guard let value = Int(text), value >= 1, value <= 100_000 else {
            throw problem(
                text.isEmpty ? "expected a number" : "\(text) is not a whole number from 1 to 100000", at: start)
        }
        return value
    }

    /// The rest of the line, blanks around it removed.
    mutating func rest() -> String {
        skipBlanks()
        var text = String(characters[index...])
        index = characters.count
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return text
    }

    func end() throws {
        var probe = self
        probe.skipBlanks()
        guard probe.index == characters.count else {
            throw problem("unexpected \(String(characters[probe.index...]))", at: probe.column)
        }
    }

    static func milliseconds(_ text: String) -> Int? {
        let (number, scale): (Substring, Double) =
            text.hasSuffix("ms")
            ? (text.dropLast(2), 1)
            : text.hasSuffix("s") ? (text.dropLast(1), 1000) : (Substring(text), 1000)
        guard let value = Double(number), value >= 0, value.isFinite, value * scale <= 86_400_000 else { return nil }
        return Int((value * scale).rounded())
    }
}

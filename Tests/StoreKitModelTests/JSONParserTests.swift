import JSONReading
import StoreKitModel
import Testing

/// The error `JSONParser.parse` throws for `bytes`, or nil when they parse.
private func syntaxError(_ bytes: [UInt8]) -> JSONSyntaxError? {
    do {
        _ = try JSONParser.parse(bytes)
        return nil
    } catch {
        return error
    }
}

private func syntaxError(_ text: String) -> JSONSyntaxError? {
    syntaxError(Array(text.utf8))
}

private func object(_ value: JSONValue) -> JSONObject? {
    if case .object(let object) = value { return object }
    return nil
}

// MARK: - Valid documents

@Test func parsesNestedObjectsArraysAndLiterals() throws {
    let value = try JSONParser.parse(#"{"a": [true, false, null], "b": {"c": "d"}}"#)
    let root = try #require(object(value))
    #expect(root.keys == ["a", "b"])
    #expect(root["a"] == .array([.bool(true), .bool(false), .null]))
    #expect(root["b"] == .object(JSONObject(members: [(key: "c", value: .string("d"))])))
}

@Test func keepsNumbersAsTheirExactSourceText() throws {
    let value = try JSONParser.parse("[0.99, 1e3, -0, 1.5E-7, 160, 12345678901234567890123.45]")
    #expect(
        value
            == .array([
                .number("0.99"), .number("1e3"), .number("-0"), .number("1.5E-7"),
                .number("160"), .number("12345678901234567890123.45"),
            ]))
}

@Test func decodesEveryEscape() throws {
    let value = try JSONParser.parse(#""q\" b\\ s\/ \b\f\n\r\t \u00e9 \u4E2D""#)
    #expect(value == .string("q\" b\\ s/ \u{08}\u{0C}\n\r\t é 中"))
}

@Test func joinsSurrogatePairsIntoOneScalar() throws {
    let value = try JSONParser.parse(#""\ud83d\ude00 \uD834\uDD1E""#)
    #expect(value == .string("😀 𝄞"))
}

@Test func keepsRawUTF8TextAndSkipsAByteOrderMark() throws {
    let value = try JSONParser.parse([0xEF, 0xBB, 0xBF] + Array(#"["高级会员", "€"]"#.utf8))
    #expect(value == .array([.string("高级会员"), .string("€")]))
}

@Test func keepsDuplicateKeysInSourceOrder() throws {
    let root = try #require(object(try JSONParser.parse(#"{"a": 1, "b": 2, "a": 3, "b": 4, "a": 5}"#)))
    #expect(root.keys == ["a", "b", "a", "b", "a"])
    #expect(root.duplicateKeys == ["a", "b"])
    #expect(root["a"] == .number("1"), "a lookup takes the first member")
}

@Test func acceptsNestingExactlyAtTheMaximumDepth() throws {
    let depth = JSONParser.maxDepth
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    #expect(throws: Never.self) { try JSONParser.parse(text) }
}

// MARK: - Errors

@Test func emptyInputIsAnError() throws {
    let error = try #require(syntaxError([UInt8]()))
    #expect(error.location.description == "line 1, column 1")
    #expect(error.message.contains("empty"))
}

@Test func whitespaceOnlyInputIsAnError() throws {
    let error = try #require(syntaxError(" \n\t\r\n  "))
    #expect(error.location.line == 3)
    #expect(error.message.contains("only whitespace"))
}

@Test func truncatedObjectSaysWhereItWasOpened() throws {
    let error = try #require(syntaxError("[1,\n  {\"a\": 1"))
    #expect(error.location.description == "line 2, column 10")
    #expect(error.message.contains("truncated"))
    #expect(error.message.contains("object opened at line 2, column 3"))
}

@Test func truncatedArraySaysWhereItWasOpened() throws {
    let error = try #require(syntaxError("{\"a\": [1, 2"))
    #expect(error.message.contains("truncated"))
    #expect(error.message.contains("array opened at line 1, column 7"))
}

@Test func truncatedStringPointsAtItsOpeningQuote() throws {
    let error = try #require(syntaxError("{\"a\":\n \"unfinished"))
    #expect(error.location.description == "line 2, column 2")
    #expect(error.message.contains("truncated"))
    #expect(error.message.contains("string that starts here"))
}

/// A file cut right after `[` or `,` ends where a value is expected; the message still says
/// which container is unclosed, as it does for a file cut after an object member.
@Test func truncatedArrayBeforeAValueSaysWhereItWasOpened() throws {
    let error = try #require(syntaxError("{\"items\": [1,"))
    #expect(error.message.contains("truncated"))
    #expect(error.message.contains("array opened at line 1, column 11"))
    #expect(error.message.contains("where a value was expected"))
}

@Test func fileEndingAfterAColonNamesTheObject() throws {
    let error = try #require(syntaxError("{\"a\":"))
    #expect(error.location.description == "line 1, column 6")
    #expect(
        error.message
            == "unexpected end of file where a value was expected: the object opened at line 1, column 1 is never closed (the file looks truncated)"
    )
}

@Test func fileEndingAfterAnOpeningBracketNamesTheArray() throws {
    let error = try #require(syntaxError("["))
    #expect(error.location.description == "line 1, column 2")
    #expect(error.message.contains("array opened at line 1, column 1 is never closed"))
}

@Test func fileEndingAfterACommaAndWhitespaceNamesTheArray() throws {
    let error = try #require(syntaxError("[1,\n  "))
    #expect(error.location.description == "line 2, column 3")
    #expect(error.message.contains("array opened at line 1, column 1 is never closed"))
}

@Test func fileEndingInsideNestedContainersNamesTheInnermost() throws {
    let error = try #require(syntaxError("{\n  \"a\": [\n    {\"b\": ["))
    #expect(error.message.contains("array opened at line 3, column 11 is never closed"))
}

@Test func trailingCommaInObjectIsAnError() throws {
    let error = try #require(syntaxError("{\n  \"a\": 1,\n}"))
    #expect(error.location.description == "line 3, column 1")
    #expect(error.message.contains("trailing comma"))
}

@Test func trailingCommaInArrayIsAnError() throws {
    let error = try #require(syntaxError("[1, 2, ]"))
    #expect(error.location.description == "line 1, column 8")
    #expect(error.message.contains("trailing comma before ']'"))
}

@Test func nulByteInsideAStringIsAnError() throws {
    let error = try #require(syntaxError([0x22, 0x61, 0x00, 0x62, 0x22]))
    #expect(error.location.description == "line 1, column 3")
    #expect(error.message.contains("NUL byte"))
}

@Test func nulByteBetweenTokensIsAnError() throws {
    let error = try #require(syntaxError([0x7B, 0x0A, 0x00, 0x7D]))
    #expect(error.location.description == "line 2, column 1")
    #expect(error.message.contains("NUL byte"))
}

@Test func invalidUTF8InsideAStringIsAnError() throws {
    let bytes: [UInt8] = Array("[\"ok\",\n \"ab".utf8) + [0xFF, 0xFE] + Array("c\"]".utf8)
    let error = try #require(syntaxError(bytes))
    #expect(error.location.description == "line 2, column 5")
    #expect(error.message.contains("invalid UTF-8"))
}

@Test func truncatedMultiByteSequenceIsInvalidUTF8() throws {
    // "é" is C3 A9; a lone C3 before the closing quote is not UTF-8.
    let error = try #require(syntaxError([0x22, 0x61, 0xC3, 0x22]))
    #expect(error.location.description == "line 1, column 3")
    #expect(error.message.contains("invalid UTF-8"))
}

@Test func invalidUTF8OutsideAStringIsAnError() throws {
    let error = try #require(syntaxError([0x5B, 0xFF, 0x5D]))
    #expect(error.location.description == "line 1, column 2")
    #expect(error.message.contains("0xFF"))
}

@Test(arguments: ["[01]", "[-01]", "[00.5]"])
func leadingZerosAreAnError(text: String) throws {
    let error = try #require(syntaxError(text))
    #expect(error.message.contains("leading zeros"))
}

@Test(arguments: ["[1.]", "[-]", "[1e]", "[.5]", "[+1]"])
func malformedNumbersAreAnError(text: String) throws {
    #expect(syntaxError(text) != nil)
}

@Test func nestingOneLevelTooDeepThrows() throws {
    let depth = JSONParser.maxDepth + 1
    let text = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
    let error = try #require(syntaxError(text))
    #expect(error.location.description == "line 1, column \(depth)")
    #expect(error.message.contains("nesting deeper than \(JSONParser.maxDepth)"))
}

@Test func hugeNestingThrowsInsteadOfCrashing() throws {
    let error = try #require(syntaxError(String(repeating: "{\"a\":[", count: 100_000)))
    #expect(error.message.contains("nesting deeper"))
}

@Test func garbageAfterTheValueIsAnError() throws {
    let error = try #require(syntaxError("{\"a\": 1}\n}x"))
    #expect(error.location.description == "line 2, column 1")
    #expect(error.message.contains("after the end of the JSON value"))
}

@Test func singleQuotedMemberNameIsAnError() throws {
    let error = try #require(syntaxError("{'a': 1}"))
    #expect(error.location.description == "line 1, column 2")
    #expect(error.message.contains("'''"))
    #expect(error.message.contains("double quotes"))
}

@Test func singleQuotedValueIsAnError() throws {
    let error = try #require(syntaxError("{\"a\": 'b'}"))
    #expect(error.location.description == "line 1, column 7")
    #expect(error.message.contains("expected a value"))
}

@Test func unquotedWordIsAnError() throws {
    let error = try #require(syntaxError("[nil]"))
    #expect(error.message.contains("double quotes"))
}

@Test func loneSurrogatesAreAnError() throws {
    #expect(try #require(syntaxError(#""\ud83d""#)).message.contains("low surrogate"))
    #expect(try #require(syntaxError(#""\ude00""#)).message.contains("lone low surrogate"))
    #expect(try #require(syntaxError(#""\ud83d\u0041""#)).message.contains("not a low surrogate"))
}

@Test func badEscapesAreAnError() throws {
    #expect(try #require(syntaxError(#""\x41""#)).message.contains("invalid escape"))
    #expect(try #require(syntaxError(#""\u12G4""#)).message.contains("four hexadecimal digits"))
    #expect(try #require(syntaxError(#""\u12"#)).message.contains("\\u escape"))
}

@Test func unescapedControlCharacterInAStringIsAnError() throws {
    let error = try #require(syntaxError("\"a\tb\""))
    #expect(error.message.contains("control character 0x9"))
}

@Test func missingColonAndCommaAreErrors() throws {
    #expect(try #require(syntaxError(#"{"a" 1}"#)).message.contains("expected ':'"))
    #expect(try #require(syntaxError(#"[1 2]"#)).message.contains("expected ',' or ']'"))
}

@Test func columnsCountCharactersNotBytes() throws {
    // "高级" is six UTF-8 bytes but two characters, as an editor shows them.
    let error = try #require(syntaxError("[\"高级\" x]"))
    #expect(error.location.description == "line 1, column 7")
}

@Test func errorDescriptionStartsWithTheLocation() throws {
    let error = try #require(syntaxError("[1,]"))
    #expect(error.description.hasPrefix("line 1, column 4: "))
}

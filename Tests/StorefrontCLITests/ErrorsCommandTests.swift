import Foundation
import TestSupport
import Testing

/// Runs `storefront errors --json …`, requires exit 0 and returns the decoded entries.
private func errorEntries(
    _ arguments: [String] = [], environment: [String: String] = [:],
    sourceLocation: SourceLocation = #_sourceLocation
) throws -> [[String: Any]] {
    let result = try Executable.run(["errors", "--json"] + arguments, environment: environment)
    try #require(result.status == 0, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
    let value = try JSONSerialization.jsonObject(with: Data(result.stdout.utf8))
    return try #require(value as? [[String: Any]], sourceLocation: sourceLocation)
}

private func containsHan(_ text: String) -> Bool {
    text.unicodeScalars.contains { (0x4E00...0x9FFF).contains($0.value) }
}

@Test func errorsJSONListsTwentyNineEntries() throws {
    let entries = try errorEntries()
    #expect(entries.count == 29)
}

@Test func storeKitCodesComeFirstInOrder() throws {
    let entries = try errorEntries().prefix(22)
    #expect(entries.compactMap { $0["code"] as? Int } == Array(0...21))
    #expect(entries.allSatisfy { $0["domain"] as? String == "SKErrorDomain" })
    #expect(entries.first?["name"] as? String == "unknown")
    #expect(entries[2]["name"] as? String == "paymentCancelled")
    #expect(entries.last?["name"] as? String == "paymentMethodBindingConfigurationRequired")
}

@Test func networkCodesComeLast() throws {
    let entries = try errorEntries().dropFirst(22)
    #expect(entries.map { $0["code"] as? Int } == [-1001, -1003, -1004, -1005, -1009, -1012, -1200])
    #expect(entries.allSatisfy { $0["domain"] as? String == "NSURLErrorDomain" })
}

@Test func everyEntryHasCodeNameMessageAndDetail() throws {
    for entry in try errorEntries() {
        #expect(entry["code"] is Int)
        for key in ["name", "message", "detail", "domain"] {
            #expect(!((entry[key] as? String) ?? "").isEmpty, "\(entry["code"] ?? "?") has no \(key)")
        }
    }
}

@Test func messagesAreDistinct() throws {
    let entries = try errorEntries()
    #expect(Set(entries.compactMap { $0["message"] as? String }).count == 29)
    #expect(Set(entries.compactMap { $0["name"] as? String }).count == 29)
}

@Test func chineseMessagesWithLangZhHans() throws {
    let chinese = try errorEntries(["--lang", "zh-Hans"])
    let english = try errorEntries()
    #expect(chinese.count == 29)
    #expect(chinese.allSatisfy { containsHan($0["message"] as? String ?? "") })
    #expect(english.allSatisfy { !containsHan($0["message"] as? String ?? "") })
    #expect((chinese[0]["message"] as? String)?.contains("未知错误") == true)
    #expect(chinese.map { $0["name"] as? String } == english.map { $0["name"] as? String })
}

@Test func chineseMessagesFromTheEnvironment() throws {
    let entries = try errorEntries(environment: ["LC_ALL": "zh_CN.UTF-8"])
    #expect((entries[5]["message"] as? String)?.contains("不可用") == true)
}

@Test func errorsTextListsEveryCode() throws {
    let result = try Executable.run(["errors"])
    #expect(result.status == 0)
    let headings = result.stdout.split(separator: "\n").filter { !$0.hasPrefix(" ") }
    #expect(headings.count == 29)
    #expect(headings.first == "SKErrorDomain 0 unknown")
    #expect(headings.last == "NSURLErrorDomain -1200 secureConnectionFailed")
}

@Test func errorsWithUnknownLanguageIsAUsageError() throws {
    let result = try Executable.run(["errors", "--lang", "klingon"])
    #expect(result.status == 2)
    #expect(result.stderr.contains("klingon"))
}

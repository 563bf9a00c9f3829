import Foundation
import JSONReading
import StoreCore
import StoreKitModel
import TestSupport
import Testing

/// The docs say what `TestControls.table` says: docs/api.md's table of controls and the
/// `Controls` and `ControlsState` schemas of docs/openapi.json are made from its rows. A row
/// added, changed or removed fails here, naming the command that writes the docs again:
/// `UPDATE_DOCS=1 swift test --filter ControlDocTests`; review the diff as a golden's.
@Suite struct ControlDocTests {
    static let update = ProcessInfo.processInfo.environment["UPDATE_DOCS"] == "1"
    static let command = "UPDATE_DOCS=1 swift test --filter ControlDocTests"
    static let openAPIPath = "docs/openapi.json"
    static let apiPath = "docs/api.md"
    static let tableStart =
        "<!-- The table of controls is made from TestControls.table (Sources/StoreCore/TestControls.swift): "
        + "\(command) writes it. -->"
    static let tableEnd = "<!-- The end of the table of controls. -->"

    static func url(_ path: String) -> URL { StoreFixture.repositoryRoot.appendingPathComponent(path) }

    /// The file as it is, and as the table would have it; writes the latter under UPDATE_DOCS.
    static func check(_ path: String, expected: (String) throws -> String) throws {
        let text = try String(contentsOf: url(path), encoding: .utf8)
        let made = try expected(text)
        guard made != text else { return }
        if update {
            try made.write(to: url(path), atomically: true, encoding: .utf8)
            return
        }
        let (old, new) = (text.components(separatedBy: "\n"), made.components(separatedBy: "\n"))
        let line = Array(zip(old, new)).firstIndex { $0 != $1 } ?? min(old.count, new.count)
        Issue.record(
            """
            \(path) differs from TestControls.table from line \(line + 1):
            - \(line < old.count ? old[line] : "(end of file)")
            + \(line < new.count ? new[line] : "(end of file)")
            Run \(command) and review the diff.
            """)
    }

    // MARK: docs/openapi.json

    @Test func theWriterKeepsOpenAPIAsItIs() throws {
        let text = try String(contentsOf: Self.url(Self.openAPIPath), encoding: .utf8)
        #expect(DocJSON.text(try JSONParser.parse(text)) == text, "a rewrite would change more than the controls")
    }

    @Test func theOpenAPISchemasOfTheControlsAreTheTables() throws {
        let catalog = try StoreFixture.catalog()
        try Self.check(Self.openAPIPath) { text in
            let document = try JSONParser.parse(text)
            let schemas = ["components", "schemas"]
            guard case .array(let outcomes)? = document.at(schemas + ["Outcome", "enum"]) else {
                Issue.record("docs/openapi.json has no Outcome schema with an enum")
                return text
            }
            let tokens = outcomes.compactMap { value -> String? in
                guard case .string(let token) = value else { return nil }
                return token
            }
            let request = TestControls.table.map {
                ($0.wireField, Self.request($0, catalog: catalog, outcomes: tokens))
            }
            let answer = TestControls.table.map { ($0.wireField, Self.answer($0)) }
            let required = TestControls.table.filter { $0.wireValue(in: TestControls()) != nil }
            return DocJSON.text(
                document
                    .replacing(schemas + ["Controls", "properties"], with: .members(request))
                    .replacing(schemas + ["ControlsState", "properties"], with: .members(answer))
                    .replacing(
                        schemas + ["ControlsState", "required"],
                        with: .array(required.map { .string($0.wireField) })))
        }
    }

    /// What `PUT /admin/controls` takes in the control's field: the catalog's storefronts,
    /// accounts and products by name, so a fuzzer sends values the server can accept.
    static func request(_ control: ControlSetting, catalog: Catalog, outcomes: [String]) -> JSONValue {
        let described = JSONValue.string(control.doc)
        switch control.form {
        case .single(let single):
            return value(single.schema, description: described, catalog: catalog, outcomes: outcomes)
        case .paired(let paired):
            let keys =
                switch paired.keys {
                case .products: catalog.products.map(\.id)
                case .oneOf(let names): names
                }
            let each = value(paired.values, description: nil, catalog: catalog, outcomes: outcomes)
            return .members([
                ("type", .string("object")), ("description", described),
                ("properties", .members(keys.map { ($0, each) })), ("additionalProperties", .bool(false)),
            ])
        }
    }

    static func value(_ schema: ValueSchema, description: JSONValue?, catalog: Catalog, outcomes: [String])
        -> JSONValue
    {
        let strings = { (values: [String]) -> JSONValue in
            .members(
                [("type", .string("string"))] + (description.map { [("description", $0)] } ?? [])
                    + [("enum", .array(values.map(JSONValue.string)))])
        }
        switch schema {
        case .boolean:
            return .members([("type", .string("boolean"))] + (description.map { [("description", $0)] } ?? []))
        case .integer(let range):
            return .members(
                [("type", .string("integer"))] + (description.map { [("description", $0)] } ?? [])
                    + [("minimum", .number(String(range.lowerBound))), ("maximum", .number(String(range.upperBound)))])
        case .oneOf(let values): return strings(values)
        // OpenAPI 3.0 ignores whatever stands beside a $ref, so the description stays in docs/api.md.
        case .outcome: return .members([("$ref", .string("#/components/schemas/Outcome"))])
        case .failure: return strings(outcomes.filter { PaymentOutcome(token: $0)?.isFailure == true } + ["none"])
        case .storefront:
            let ids = catalog.storefronts.map(\.id)
            return strings(ids + ids.map { $0.lowercased() } + [""])
        case .account: return strings(catalog.accounts.map(\.name) + [""])
        }
    }

    /// What `GET /v1/controls` answers in the control's field.
    static func answer(_ control: ControlSetting) -> JSONValue {
        let described = [("description", JSONValue.string(control.doc))]
        switch control.form {
        case .single(let single):
            switch (single.wire, single.schema) {
            case (.bool, _): return .members([("type", .string("boolean"))] + described)
            case (.integer, .integer(let range)):
                return .members(
                    [("type", .string("integer"))] + described
                        + [
                            ("minimum", .number(String(range.lowerBound))),
                            ("maximum", .number(String(range.upperBound))),
                        ])
            case (.integer, _): return .members([("type", .string("integer"))] + described)
            case (.text, _): return .members([("type", .string("string"))] + described)
            }
        case .paired:
            return .members(
                [("type", .string("object"))] + described
                    + [("additionalProperties", .members([("type", .string("string"))]))])
        }
    }

    // MARK: docs/api.md

    @Test func theAPIDocsTableOfControlsIsTheTable() throws {
        try Self.check(Self.apiPath) { text in
            guard let start = text.range(of: Self.tableStart), let end = text.range(of: Self.tableEnd),
                start.upperBound <= end.lowerBound
            else {
                Issue.record(
                    "\(Self.apiPath) has no table of controls between\n\(Self.tableStart)\nand\n\(Self.tableEnd)")
                return text
            }
            return text.replacingCharacters(in: start.upperBound..<end.lowerBound, with: "\n" + Self.markdown() + "\n")
        }
    }

    /// A line per control: its field, its `manage set` name, the JSON it takes, its default and
    /// what it does.
    static func markdown() -> String {
        let cell = { (text: String) in text.replacingOccurrences(of: "|", with: "\\|") }
        let lines = TestControls.table.map { control -> String in
            let value: String
            switch control.form {
            case .single(let single):
                switch single.wire {
                case .bool: value = "`true` or `false` (`on` or `off`)"
                case .integer, .text: value = control.accepted
                }
            case .paired(let paired):
                let keys =
                    switch paired.keys {
                    case .products: paired.key
                    case .oneOf(let names): "\(paired.key) (\(names.joined(separator: ", ")))"
                    }
                value = "an object, \(keys) → \(control.accepted.dropFirst(paired.key.count + 1))"
            }
            let defaultValue: String =
                switch control.defaultValue {
                case .bool(let on)?: "`\(on)`"
                case .integer(let number)?: "`\(number)`"
                case .text(let text)? where text.isEmpty: "not set"
                case .text(let text)?: "`\"\(text)\"`"
                case .map(let entries)? where entries.isEmpty: "`{}`"
                case .map?, nil: "not set"
                }
            return
                "| `\(control.wireField)` | `\(control.name)` | \(cell(value)) | \(defaultValue) | \(cell(control.doc)) |"
        }
        return (["| field | `manage set` | value | default | what it does |", "|---|---|---|---|---|"] + lines)
            .joined(separator: "\n")
    }
}

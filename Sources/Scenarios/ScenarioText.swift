import Foundation
import JSONReading
import StoreKitModel
import Yams

/// A scenario's text read into a scenario: JSON, or YAML when the file's name ends in `.yaml` or
/// `.yml`. A YAML document becomes the same tree as JSON, so both are checked alike; its
/// problems also give their line and column.
public enum ScenarioText {
    public static func isYAML(_ path: String) -> Bool {
        let lower = path.lowercased()
        return lower.hasSuffix(".yaml") || lower.hasSuffix(".yml")
    }

    /// Every problem at once, under the name `source`, as a catalog's are reported.
    public static func read(_ text: String, source: String, yaml: Bool, catalog: Catalog?) -> Result<
        Scenario, CatalogError
    > {
        ScenarioDocument.parse(text, source: source, yaml: yaml).flatMap { $0.scenario(catalog: catalog) }
    }
}

/// A scenario's text parsed once: the tree, and where each value and key is written (YAML).
/// Its `catalog` is read first, and the rest is checked against that catalog.
public struct ScenarioDocument: Sendable {
    let source: String
    let document: JSONValue
    let marks: [String: String]
    let keyMarks: [String: String]

    public static func parse(_ text: String, source: String, yaml: Bool) -> Result<ScenarioDocument, CatalogError> {
        var marks: [String: String] = [:]
        var keyMarks: [String: String] = [:]
        do {
            let document =
                yaml ? try YAMLTree.value(text, marks: &marks, keyMarks: &keyMarks) : try JSONParser.parse(text)
            return .success(ScenarioDocument(source: source, document: document, marks: marks, keyMarks: keyMarks))
        } catch let error as JSONSyntaxError {
            return .failure(CatalogError(source: source, message: error.description))
        } catch let error as YAMLTree.Problem {
            return .failure(CatalogError(source: source, message: error.message))
        } catch {
            return .failure(CatalogError(source: source, message: "\(error)"))
        }
    }

    /// The document's `catalog`, when it names one.
    public var catalogPath: String? {
        guard case .object(let top) = document, case .string(let path)? = top["catalog"] else { return nil }
        return path
    }

    /// The scenario, or every problem at once with its place.
    public func scenario(catalog: Catalog?) -> Result<Scenario, CatalogError> {
        switch ScenarioDecoder.decode(document, catalog: catalog) {
        case .success(let scenario): return .success(scenario)
        case .failure(let found):
            return .failure(
                CatalogError(
                    source: source,
                    problems: found.problems.map { problem in
                        // A problem with a key (unknown, repeated) is where the key is written.
                        let aboutKey =
                            problem.message.hasPrefix("unknown key")
                            || problem.message.hasPrefix("the key appears more than once")
                        guard let mark = (aboutKey ? keyMarks[problem.path] : nil) ?? marks[problem.path] else {
                            return problem
                        }
                        return CatalogProblem(path: "\(problem.path) (\(mark))", message: problem.message)
                    }))
        }
    }
}

/// A YAML document as the JSON tree the decoder reads, with where each value started.
enum YAMLTree {
    struct Problem: Error {
        let message: String
    }

    static func value(_ text: String, marks: inout [String: String], keyMarks: inout [String: String]) throws
        -> JSONValue
    {
        let root: Node?
        do {
            root = try Yams.compose(yaml: text)
        } catch let error as YamlError {
            throw Problem(message: describe(error))
        }
        guard let root else {
            throw Problem(
                message: "the file holds no YAML document; expected a mapping with name, description and steps")
        }
        var places = Places(values: marks, keys: keyMarks)
        defer { (marks, keyMarks) = (places.values, places.keys) }
        return try value(root, .root, &places)
    }

    /// Where each value and each mapping key starts, by the path the decoder names them with, and
    /// the places already read.
    struct Places {
        var values: [String: String]
        var keys: [String: String]
        /// Every node's start, once: libyaml hands an alias over as the very node it names, so a
        /// place met twice is an alias, and reading it again would expand it (a file of nested
        /// aliases a few hundred bytes long expands to billions of values).
        var visited: Set<Int> = []
        /// Values read so far, against `maxValues`.
        var count = 0
    }

    /// Far more values than any scenario holds (at most 100 steps of a few values each).
    static let maxValues = 100_000

    private static func value(_ node: Node, _ path: JSONPath, _ marks: inout Places) throws -> JSONValue {
        marks.count += 1
        guard marks.count <= maxValues else {
            throw Problem(
                message: "\(path): the document holds more than \(maxValues) values; a scenario holds a few hundred")
        }
        if let mark = node.mark {
            marks.values[path.description] = "line \(mark.line), column \(mark.column)"
            guard marks.visited.insert(mark.offset(in: 1 << 24)).inserted else {
                throw Problem(
                    message:
                        "\(path) repeats the value at line \(mark.line), column \(mark.column): YAML aliases (*name) are not supported; write the value out"
                )
            }
        }
        switch node {
        case .scalar(let scalar):
            if node.null != nil { return .null }
            if let flag = node.bool { return .bool(flag) }
            if node.int != nil || node.float != nil { return .number(scalar.string) }
            return .string(scalar.string)
        case .sequence(let sequence):
            return .array(try sequence.enumerated().map { index, item in try value(item, path.index(index), &marks) })
        case .mapping(let mapping):
            var members: [(key: String, value: JSONValue)] = []
            for (key, item) in mapping {
                guard case .scalar(let name) = key else {
                    throw Problem(
                        message:
                            "\(key.mark.map { "line \($0.line), column \($0.column)" } ?? path.description): a key must be plain text"
                    )
                }
                if let mark = key.mark {
                    marks.keys[path.key(name.string).description] = "line \(mark.line), column \(mark.column)"
                }
                members.append((key: name.string, value: try value(item, path.key(name.string), &marks)))
            }
            return .object(JSONObject(members: members))
        case .alias:
            throw Problem(
                message:
                    "\(node.mark.map { "line \($0.line), column \($0.column)" } ?? path.description): YAML aliases (*name) are not supported; write the value out"
            )
        }
    }

    /// libyaml's complaint with its place, on one line.
    private static func describe(_ error: YamlError) -> String {
        switch error {
        case .scanner(_, let problem, let mark, _), .parser(_, let problem, let mark, _),
            .composer(_, let problem, let mark, _):
            "line \(mark.line), column \(mark.column): \(problem)"
                + (problem.contains("cannot start any token") ? " (a tab? YAML indents with spaces)" : "")
        case .duplicatedKeysInMapping(let duplicates, _):
            "the key \(duplicates.map { brief(.string($0)) }.joined(separator: ", ")) appears more than once; each key may appear only once"
        default:
            String(describing: error).split(separator: "\n").first.map(String.init) ?? "not YAML"
        }
    }
}

extension Mark {
    /// The mark as one number: its line times `columns` plus its column.
    fileprivate func offset(in columns: Int) -> Int { line * columns + column }
}

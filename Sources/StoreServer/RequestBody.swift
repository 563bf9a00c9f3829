import Foundation
import Hummingbird
import JSONReading
import StoreKitModel

/// Reading request bodies with a size limit, a content-type check and JSON decoding whose
/// failures say what is wrong: 413 over the limit, 415 not JSON, 400 unreadable, 422 wrong shape.
enum BodyReader {
    /// Collects the body, refusing it (413) as soon as it passes `limit`, or at once when
    /// Content-Length already says so.
    static func bytes(_ request: Request, limit: Int) async throws -> Data {
        if let length = request.headers[.contentLength].flatMap(Int.init), length > limit {
            throw APIError.tooLarge(limit: limit)
        }
        do {
            let buffer = try await request.body.collect(upTo: limit)
            return Data(buffer.readableBytesView)
        } catch let error as any HTTPResponseError where error.status == .contentTooLarge {
            throw APIError.tooLarge(limit: limit)
        }
    }

    /// 415 unless the request says its body is JSON (`application/json`, any parameters).
    static func requireJSON(_ request: Request) throws {
        let contentType = request.headers[.contentType]
        guard let contentType, isJSON(contentType) else { throw APIError.unsupportedMediaType(contentType) }
    }

    static func isJSON(_ contentType: String) -> Bool {
        let mediaType =
            contentType.split(separator: ";", maxSplits: 1).first.map {
                $0.trimmingCharacters(in: .whitespaces).lowercased()
            } ?? ""
        return mediaType == "application/json" || (mediaType.hasPrefix("application/") && mediaType.hasSuffix("+json"))
    }

    /// A JSON body decoded as `T`: content type, size, syntax and shape checked in that order.
    static func decode<T: Decodable>(_ type: T.Type, from request: Request, limit: Int) async throws -> (T, Data) {
        try requireJSON(request)
        let data = try await bytes(request, limit: limit)
        return (try decode(type, from: data), data)
    }

    static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        let object = try parseObject(data, multiline: (T.self as? any MultilineFields.Type)?.multilineFields ?? [])
        if let known = T.self as? any KnownFields.Type {
            try check(object, against: known.fields)
        }
        do {
            return try JSONDecoder().decode(type, from: data)
        } catch let error as DecodingError {
            throw describe(error, in: object)
        }
    }

    /// The body as a JSON object whose text and keys are checked: 400 when it is not JSON, holds a
    /// control character or a key twice, 422 when it is JSON but not an object (every request body
    /// of this API is one).
    /// `multiline`: top-level fields whose text may break lines (a PEM key), and hold no other control.
    private static func parseObject(_ data: Data, multiline: Set<String> = []) throws -> JSONObject {
        guard !data.isEmpty else { throw APIError.badRequest("the request body is empty; expected a JSON object") }
        // The catalog's parser, not JSONSerialization: a third of the cost, and it says where the syntax breaks.
        let parsed: JSONValue
        do {
            parsed = try JSONParser.parse([UInt8](data), as: .requestBody)
        } catch {
            throw APIError.badRequest("the request body is not valid JSON (\(error))")
        }
        guard case .object(let object) = parsed else {
            throw APIError.invalid(
                "the body is \(parsed.kindName); expected a JSON object with this route's fields (docs/api.md)")
        }
        try checkKeysAndText(object, at: .root, multiline: multiline)
        return object
    }

    /// Every key and string in `object`, at any depth, must be text without control characters,
    /// and no object may have a key twice: catalogs are held to the same, and which of two values
    /// a request meant is a guess (Foundation's decoder keeps one of them).
    private static func checkKeysAndText(_ object: JSONObject, at path: JSONPath, multiline: Set<String> = []) throws {
        if let key = object.duplicateKeys.first {
            let keyPath = path.key(key)
            throw APIError.badRequest(
                "\(keyPath): the key appears more than once; each key may appear only once", field: keyPath.description)
        }
        for member in object.members {
            let memberPath = path.key(member.key)
            try NetworkText.refuseControls(member.key, field: memberPath.description, place: "the key \(memberPath)")
            if multiline.contains(member.key), case .string(let text) = member.value {
                try NetworkText.refuseControls(
                    text.filter { $0 != "\n" && $0 != "\r\n" && $0 != "\r" }, field: memberPath.description,
                    place: memberPath.description)
            } else {
                try checkKeysAndText(member.value, at: memberPath)
            }
        }
    }

    private static func checkKeysAndText(_ value: JSONValue, at path: JSONPath) throws {
        switch value {
        case .string(let text): try NetworkText.refuseControls(text, field: path.description, place: path.description)
        case .object(let object): try checkKeysAndText(object, at: path)
        case .array(let items):
            for (index, item) in items.enumerated() { try checkKeysAndText(item, at: path.index(index)) }
        case .number, .bool, .null: break
        }
    }

    /// Unknown fields and explicit nulls are refused: a field is either left out or has a value
    /// (`null` read as "left out" made `{"storefront": null}` look accepted while it did nothing).
    private static func check(_ object: JSONObject, against fields: Set<String>) throws {
        if let unknown = object.keys.filter({ !fields.contains($0) }).sorted().first {
            throw APIError.invalid(
                "\(unknown.prefix(64).debugDescription) is not a field of this request; it has \(fields.sorted().joined(separator: ", "))",
                field: String(unknown.prefix(64)))
        }
        if let null = object.members.filter({ $0.value == .null }).map(\.key).sorted().first {
            throw APIError.invalid("\(null) must not be null; leave it out instead", field: null)
        }
    }

    private static func describe(_ error: DecodingError, in object: JSONObject) -> APIError {
        func path(_ codingPath: [any CodingKey]) -> String {
            codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().trimmingCharacters(
                in: CharacterSet(charactersIn: "."))
        }
        switch error {
        case .keyNotFound(let key, let context):
            let field = path(context.codingPath + [key])
            return .invalid("\(field) is required", field: field)
        case .typeMismatch(let type, let context):
            let field = path(context.codingPath)
            return .invalid(
                "\(field.isEmpty ? "the body" : field) has the wrong type; expected \(describe(type))",
                field: field.isEmpty ? nil : field)
        case .valueNotFound(let type, let context):
            let field = path(context.codingPath)
            return .invalid("\(field) must not be null; expected \(describe(type))", field: field)
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // Foundation's decoder says "not valid JSON", at no path, of a number an integer
            // cannot hold; the parser accepted the syntax, so that number is the cause.
            guard let (at, number) = firstNonInteger(in: .object(object), at: .root) else {
                return .invalid("the body: \(context.debugDescription)")
            }
            return .invalid("\(at): \(number) is not an integer; expected an integer", field: at.description)
        case .dataCorrupted(let context):
            let field = path(context.codingPath)
            return .invalid(
                "\(field.isEmpty ? "the body" : field): \(context.debugDescription)", field: field.isEmpty ? nil : field
            )
        @unknown default:
            return .invalid("the body does not have the expected shape")
        }
    }

    /// The first number in `value` that no integer type holds: a fraction (1.5) or too large (1e30).
    private static func firstNonInteger(in value: JSONValue, at path: JSONPath) -> (JSONPath, String)? {
        switch value {
        case .number(let text):
            guard Int(text) == nil else { return nil }
            let number = Double(text) ?? .infinity
            return number.rounded() == number && abs(number) < 0x1p63 ? nil : (path, text)
        case .object(let object):
            return object.members.lazy.compactMap { firstNonInteger(in: $0.value, at: path.key($0.key)) }.first
        case .array(let items):
            return items.enumerated().lazy.compactMap { firstNonInteger(in: $0.element, at: path.index($0.offset)) }
                .first
        case .string, .bool, .null:
            return nil
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Int64.Type: "an integer"
        case is Bool.Type: "true or false"
        case is [String].Type: "an array of strings"
        // A dictionary is a collection too: asked first, or an object would be called an array.
        default:
            type is any ExpressibleByDictionaryLiteral.Type || !(type is any Collection.Type) ? "an object" : "an array"
        }
    }
}

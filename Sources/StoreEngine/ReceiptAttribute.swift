import Foundation
import SwiftASN1

/// One field of Apple's receipt: `ReceiptAttribute ::= SEQUENCE { type INTEGER, version INTEGER,
/// value OCTET STRING }`, the value being the DER of a UTF8String, IA5String (dates, RFC 3339),
/// INTEGER, raw bytes, or for an in-app purchase a SET of these attributes again.
struct ReceiptAttribute: DERImplicitlyTaggable, Hashable, Sendable {
    static var defaultIdentifier: ASN1Identifier { .sequence }

    let type: Int
    /// The octet string's contents.
    let value: [UInt8]

    init(type: Int, value: [UInt8]) {
        self.type = type
        self.value = value
    }

    init(derEncoded node: ASN1Node, withIdentifier identifier: ASN1Identifier) throws {
        self = try DER.sequence(node, identifier: identifier) { nodes in
            let type = try Int(derEncoded: &nodes)
            _ = try Int(derEncoded: &nodes)  // version: Apple's vary, and say nothing a reader needs
            return ReceiptAttribute(type: type, value: Array(try ASN1OctetString(derEncoded: &nodes).bytes))
        }
    }

    func serialize(into coder: inout DER.Serializer, withIdentifier identifier: ASN1Identifier) throws {
        try coder.appendConstructedNode(identifier: identifier) { coder in
            try coder.serialize(type)
            try coder.serialize(1)
            try coder.serialize(ASN1OctetString(contentBytes: value[...]))
        }
    }

    // MARK: Values

    static func string(_ type: Int, _ text: String) -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: utf8Value(text))
    }

    /// The DER of `text` as a UTF8String: a string field's value, and what the receipt hash covers of the bundle id.
    static func utf8Value(_ text: String) -> [UInt8] {
        (try? der(ASN1UTF8String(text))) ?? []
    }

    static func date(_ type: Int, _ date: Date) throws -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: try der(ASN1IA5String(date.formatted(Self.rfc3339))))
    }

    static func integer(_ type: Int, _ number: Int64) throws -> ReceiptAttribute {
        ReceiptAttribute(type: type, value: try der(number))
    }

    static func set(_ type: Int, _ attributes: [ReceiptAttribute]) throws -> ReceiptAttribute {
        var serializer = DER.Serializer()
        try serializer.serializeSetOf(attributes)
        return ReceiptAttribute(type: type, value: serializer.serializedBytes)
    }

    /// `2026-01-02T03:04:05Z`: to the second, in UTC, as Apple writes receipt dates.
    static let rfc3339 = Date.ISO8601FormatStyle(timeZone: TimeZone(identifier: "UTC") ?? .gmt)

    private static func der(_ value: some DERSerializable) throws -> [UInt8] {
        var serializer = DER.Serializer()
        try serializer.serialize(value)
        return serializer.serializedBytes
    }

    // MARK: Reading values

    /// A UTF8String, or an IA5String, which some of Apple's string fields use.
    func string() throws -> String {
        let node = try DER.parse(value)
        switch node.identifier {
        case .utf8String: return String(try ASN1UTF8String(derEncoded: node))
        case .ia5String: return String(try ASN1IA5String(derEncoded: node))
        default: throw ReceiptFormatError("attribute \(type) is not a string")
        }
    }

    func date() throws -> Date {
        let text = try string()
        guard let date = try? Date(text, strategy: Self.rfc3339) else {
            throw ReceiptFormatError("attribute \(type) is not an RFC 3339 date: \(text.prefix(40))")
        }
        return date
    }

    func integer() throws -> Int64 {
        try Int64(derEncoded: try DER.parse(value))
    }

    func attributes() throws -> [ReceiptAttribute] {
        try DER.set(of: ReceiptAttribute.self, identifier: .set, rootNode: try DER.parse(value))
    }
}

/// Why a signed receipt's content is not a receipt.
struct ReceiptFormatError: Error, CustomStringConvertible, Sendable {
    let description: String

    init(_ reason: String) { description = "not an App Store receipt: \(reason)" }
}

import Foundation
import StoreCore
import SwiftASN1

/// Apple's app receipt as ASN.1: a SET of `ReceiptAttribute`, each in-app purchase (type 17) a
/// SET of attributes of its own. The types are Apple's ("Receipt Fields"); the values are DER.
extension ReceiptPayload {
    /// Attribute types of the receipt.
    enum Field {
        /// Undocumented by Apple but in every receipt: `Production`, `ProductionSandbox` (sandbox),
        /// or `Xcode` for StoreKit testing. It is how a server tells 21007 from 21008.
        static let environment = 0
        static let bundleId = 2
        static let appVersion = 3
        static let opaqueValue = 4
        static let sha1Hash = 5
        static let creationDate = 12
        static let inApp = 17
        static let originalAppVersion = 19
        /// Storefront's own: the account whose receipt it is. Far above Apple's types, which
        /// readers skip when they do not know them.
        static let account = 20_001
    }

    /// Attribute types of an in-app purchase.
    enum InAppField {
        static let quantity = 1701
        static let productId = 1702
        static let transactionId = 1703
        static let purchaseDate = 1704
        static let originalTransactionId = 1705
        static let originalPurchaseDate = 1706
        static let expiresDate = 1708
        static let webOrderLineItemId = 1711
        static let cancellationDate = 1712
        static let isTrialPeriod = 1713
        static let isInIntroOfferPeriod = 1719
        static let promotionalOfferId = 1721
    }

    /// The receipt's environment as attribute 0 spells it: Apple names the sandbox `ProductionSandbox`.
    static func environmentField(_ environment: StoreEnvironment) -> String {
        environment == .sandbox ? "ProductionSandbox" : environment.rawValue
    }

    /// nil for a name no store of Apple's gives.
    static func environment(fromField value: String) -> StoreEnvironment? {
        value == "ProductionSandbox" ? .sandbox : StoreEnvironment(rawValue: value)
    }

    func derEncoded() throws -> [UInt8] {
        var fields: [ReceiptAttribute] = [
            .string(Field.environment, Self.environmentField(environment)),
            .string(Field.bundleId, bundleId),
            .string(Field.appVersion, appVersion),
            ReceiptAttribute(type: Field.opaqueValue, value: opaqueValue),
            ReceiptAttribute(type: Field.sha1Hash, value: sha1Hash),
            try .date(Field.creationDate, creationDate),
            .string(Field.originalAppVersion, originalAppVersion),
            .string(Field.account, account),
        ]
        for item in inApp {
            fields.append(try .set(Field.inApp, try item.attributes()))
        }
        var serializer = DER.Serializer()
        try serializer.serializeSetOf(fields)
        return serializer.serializedBytes
    }

    /// Reads a receipt's content. A DER SET holds its members sorted by encoding, so the in-app
    /// purchases come back ordered by purchase date, then by transaction id, not as written.
    init(derEncoded bytes: [UInt8]) throws {
        let fields = try Self.fields(bytes)
        func required(_ type: Int) throws -> ReceiptAttribute {
            guard let field = fields.first(where: { $0.type == type }) else {
                throw ReceiptFormatError("it has no attribute \(type)")
            }
            return field
        }
        let environment = try required(Field.environment).string()
        guard let named = Self.environment(fromField: environment) else {
            throw ReceiptFormatError("its environment \(environment) is none of Apple's")
        }
        self.init(
            environment: named,
            bundleId: try required(Field.bundleId).string(),
            appVersion: try required(Field.appVersion).string(),
            originalAppVersion: try required(Field.originalAppVersion).string(),
            account: try required(Field.account).string(),
            creationDate: try required(Field.creationDate).date(),
            opaqueValue: try required(Field.opaqueValue).value,
            sha1Hash: try required(Field.sha1Hash).value,
            inApp: try fields.filter { $0.type == Field.inApp }.map { try InApp(attributes: $0.attributes()) }
                .sorted {
                    ($0.purchaseDate, $0.transactionId.count, $0.transactionId) < (
                        $1.purchaseDate, $1.transactionId.count, $1.transactionId
                    )
                })
    }

    /// Attribute 0 alone, without reading the rest.
    static func environment(derEncoded bytes: [UInt8]) throws -> StoreEnvironment? {
        try fields(bytes).first { $0.type == Field.environment }.flatMap { environment(fromField: try $0.string()) }
    }

    private static func fields(_ bytes: [UInt8]) throws -> [ReceiptAttribute] {
        try DER.set(of: ReceiptAttribute.self, identifier: .set, rootNode: try DER.parse(bytes))
    }
}

extension ReceiptPayload.InApp {
    typealias Field = ReceiptPayload.InAppField

    func attributes() throws -> [ReceiptAttribute] {
        var fields: [ReceiptAttribute] = [
            try .integer(Field.quantity, Int64(quantity)),
            .string(Field.productId, productId),
            .string(Field.transactionId, transactionId),
            .string(Field.originalTransactionId, originalTransactionId),
            try .date(Field.purchaseDate, purchaseDate),
            try .date(Field.originalPurchaseDate, originalPurchaseDate),
        ]
        if let expiresDate { fields.append(try .date(Field.expiresDate, expiresDate)) }
        if let cancellationDate { fields.append(try .date(Field.cancellationDate, cancellationDate)) }
        if let webOrderLineItemId { fields.append(try .integer(Field.webOrderLineItemId, webOrderLineItemId)) }
        if let isTrialPeriod { fields.append(try .integer(Field.isTrialPeriod, isTrialPeriod ? 1 : 0)) }
        if let isInIntroOfferPeriod {
            fields.append(try .integer(Field.isInIntroOfferPeriod, isInIntroOfferPeriod ? 1 : 0))
        }
        if let promotionalOfferId { fields.append(.string(Field.promotionalOfferId, promotionalOfferId)) }
        return fields
    }

    init(attributes fields: [ReceiptAttribute]) throws {
        func field(_ type: Int) -> ReceiptAttribute? { fields.first { $0.type == type } }
        func required(_ type: Int) throws -> ReceiptAttribute {
            guard let found = field(type) else {
                throw ReceiptFormatError("an in-app purchase has no attribute \(type)")
            }
            return found
        }
        guard let quantity = Int(exactly: try required(Field.quantity).integer()) else {
            throw ReceiptFormatError("an in-app purchase's quantity is out of range")
        }
        self.init(
            quantity: quantity,
            productId: try required(Field.productId).string(),
            transactionId: try required(Field.transactionId).string(),
            originalTransactionId: try required(Field.originalTransactionId).string(),
            purchaseDate: try required(Field.purchaseDate).date(),
            originalPurchaseDate: try required(Field.originalPurchaseDate).date(),
            expiresDate: try field(Field.expiresDate)?.date(),
            cancellationDate: try field(Field.cancellationDate)?.date(),
            webOrderLineItemId: try field(Field.webOrderLineItemId)?.integer(),
            isTrialPeriod: try field(Field.isTrialPeriod).map { try $0.integer() != 0 },
            isInIntroOfferPeriod: try field(Field.isInIntroOfferPeriod).map { try $0.integer() != 0 },
            promotionalOfferId: try field(Field.promotionalOfferId)?.string())
    }
}

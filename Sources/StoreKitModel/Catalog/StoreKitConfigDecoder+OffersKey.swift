import Foundation
import JSONReading

extension StoreKitConfigDecoder {
    /// `subscriptionOffersKeyPair`: `{"id": "851B7BE3", "privateKey": "MIGTAgEA…"}`, the key Xcode
    /// keeps in the file to sign its promotional offers with, the private key PKCS#8 DER in base64
    /// without PEM armour. Nil when the file has none: the store then makes one.
    mutating func offersKeyPair(_ value: JSONValue?) -> OfferSigningKey? {
        let path = JSONPath.root.key("subscriptionOffersKeyPair")
        guard let value, value != .null, let object = check.object(value, path) else { return nil }
        let id = check.string(
            check.require(object, "id", path, "the key's identifier"), path.key("id"), maxLength: 100)
        let key = check.string(
            check.require(object, "privateKey", path, "the private key, PKCS#8 DER in base64"),
            path.key("privateKey"), maxLength: 4_096)
        guard let id, let key else { return nil }
        let base64 = key.filter { !$0.isWhitespace }
        guard !id.isEmpty, Data(base64Encoded: base64) != nil else {
            check.report(
                path, "needs a non-empty \"id\" and a base64 \"privateKey\" (as Xcode writes them)")
            return nil
        }
        return OfferSigningKey(keyId: id, privateKeyPEM: OfferSigningKey.pem(base64: base64))
    }
}

extension OfferSigningKey {
    /// PKCS#8 DER (base64) in PEM armour, lines of 64 characters.
    public static func pem(base64: String) -> String {
        var lines = ["-----BEGIN PRIVATE KEY-----"]
        var rest = Substring(base64)
        while !rest.isEmpty {
            lines.append(String(rest.prefix(64)))
            rest = rest.dropFirst(64)
        }
        lines.append("-----END PRIVATE KEY-----")
        return lines.joined(separator: "\n") + "\n"
    }
}

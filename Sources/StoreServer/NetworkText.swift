/// Text from the network, whatever it names: no control characters. SQLite ends a text at a NUL,
/// so `2000000000000001\0junk` named transaction 2000000000000001, and a product id stored cut
/// short differed from the one the answer echoed. Every string of a JSON body (keys included) and
/// every path parameter is checked before anything reads it.
enum NetworkText {
    /// C0 controls, DEL and C1 controls: Unicode's `Cc` category.
    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value)
    }

    /// 400 naming `field` when `text` holds a control character; `place` says where it was, as
    /// the message's subject ("productId", "the transactionId in the path").
    static func refuseControls(_ text: String, field: String?, place: String) throws {
        guard let (offset, scalar) = text.unicodeScalars.enumerated().first(where: { isControl($0.element) }) else {
            return
        }
        throw APIError.badRequest(
            "\(place) contains the control character \(code(scalar)) at character \(offset + 1); "
                + "text sent to this server must not contain control characters (U+0000–U+001F, U+007F–U+009F)",
            field: field)
    }

    /// `U+001B`: four hex digits at least, as Unicode writes code points.
    static func code(_ scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        return "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }
}

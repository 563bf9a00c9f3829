/// The order id of a purchase, as the App Store prints it on the customer's receipt email and
/// Look Up Order ID takes it: ten characters, "M" then nine of Crockford's base 32 (no I, L, O
/// or U, so it reads aloud without doubt). Here each transaction is its own order, and the id
/// encodes the transaction's number, so a lookup needs no table.
public enum OrderId {
    private static let alphabet = Array("0123456789ABCDEFGHJKMNPQRSTVWXYZ")
    private static let base: Int64 = 2_000_000_000_000_000
    private static let digits = 9

    /// Nil for a transaction id the store did not allocate.
    public static func of(transactionId: String) -> String? {
        guard let id = Int64(transactionId), id > base, id - base < 1 << (5 * Int64(digits)) else { return nil }
        var number = id - base
        var characters: [Character] = []
        for _ in 0..<digits {
            characters.append(alphabet[Int(number & 31)])
            number >>= 5
        }
        return "M" + String(characters.reversed())
    }

    /// The transaction an order id names; nil when it is not one of ours. Lowercase is accepted,
    /// as people type it.
    public static func transactionId(of orderId: String) -> String? {
        let upper = Array(orderId.uppercased())
        guard upper.count == digits + 1, upper.first == "M" else { return nil }
        var number: Int64 = 0
        for character in upper.dropFirst() {
            guard let value = alphabet.firstIndex(of: character) else { return nil }
            number = number << 5 | Int64(value)
        }
        return number > 0 ? String(base + number) : nil
    }
}

import Foundation

/// `Expect`'s small grammar: one fact per line, each word checked where it stands.
extension TapeParser {
    static let expectUsage =
        "Expect transaction N|last state|product|price VALUE, Expect wallet BALANCE AMOUNT, "
        + "Expect [not] owned PRODUCT or Expect subscription PRODUCT STATE"

    static func expectation(_ scanner: inout LineScanner, at column: Int) throws -> Tape.Expectation {
        let (subject, subjectColumn) = scanner.word()
        let expectation: Tape.Expectation
        switch subject {
        case "transaction": expectation = try transactionExpectation(&scanner)
        case "wallet":
            let balance = try scanner.argument("a balance, such as gems")
            let (text, amountColumn) = scanner.word()
            guard let amount = Int(text), amount >= 0 else {
                throw scanner.problem(
                    text.isEmpty ? "expected the balance's amount" : "\(text) is not an amount (0 or more)",
                    at: text.isEmpty ? nil : amountColumn)
            }
            expectation = .wallet(balance: balance, amount: amount)
        case "owned": expectation = .owned(productId: try scanner.argument("a product id"), owned: true)
        case "not":
            let (word, wordColumn) = scanner.word()
            guard word == "owned" else { throw scanner.problem("expected `not owned PRODUCT`", at: wordColumn) }
            expectation = .owned(productId: try scanner.argument("a product id"), owned: false)
        case "subscription":
            let product = try scanner.argument("a product id")
            let state = try oneOf(Tape.Expectation.subscriptionStates, "a renewal state", &scanner)
            expectation = .subscription(productId: product, state: state)
        default:
            throw scanner.problem(
                subject.isEmpty ? "Expect needs a fact: \(expectUsage)" : "unknown fact \(subject): \(expectUsage)",
                at: subject.isEmpty ? column : subjectColumn)
        }
        try scanner.end()
        return expectation
    }

    private static func transactionExpectation(_ scanner: inout LineScanner) throws -> Tape.Expectation {
        let (refText, refColumn) = scanner.word()
        let ref: Tape.TransactionRef
        if refText == "last" {
            ref = .last
        } else if let number = Int(refText), number >= 1 {
            ref = .number(number)
        } else {
            throw scanner.problem(
                refText.isEmpty
                    ? "expected which transaction: its number in the run (1 is the first bought) or last"
                    : "\(refText) is not a transaction: its number in the run (1 is the first bought) or last",
                at: refText.isEmpty ? nil : refColumn)
        }
        let fields = Tape.TransactionField.allCases
        let name = try oneOf(fields.map(\.rawValue), "a field", &scanner)
        let field = fields.first { $0.rawValue == name } ?? .state
        switch field {
        case .state:
            return .transaction(ref, field, try oneOf(Tape.Expectation.states, "a state", &scanner))
        case .product:
            return .transaction(ref, field, try scanner.argument("a product id"))
        case .price:
            let (price, priceColumn) = scanner.word()
            guard price.range(of: #"^\d+(\.\d+)?$"#, options: .regularExpression) != nil else {
                throw scanner.problem(
                    price.isEmpty
                        ? "expected a price as a decimal number, such as 0.99"
                        : "\(price) is not a price: a decimal number without currency, such as 0.99",
                    at: price.isEmpty ? nil : priceColumn)
            }
            return .transaction(ref, field, price)
        }
    }

    /// The next word, which must be one of `choices`.
    private static func oneOf(_ choices: [String], _ what: String, _ scanner: inout LineScanner) throws -> String {
        let (word, column) = scanner.word()
        guard choices.contains(word) else {
            let list = choices.joined(separator: ", ")
            throw scanner.problem(
                word.isEmpty ? "expected \(what): \(list)" : "\(word) is not \(what): \(list)",
                at: word.isEmpty ? nil : column)
        }
        return word
    }
}

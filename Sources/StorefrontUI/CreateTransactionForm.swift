import Foundation
import StoreCore
import StoreKitModel

/// The manager's form for a transaction made outside the device (`B`): a product, the date it
/// was bought and whether it renews, for the signed-in account. The date is typed, or moved a
/// month at a time with the arrows.
public struct CreateTransactionForm: Sendable, Hashable {
    public enum Field: Int, Sendable, Hashable, CaseIterable {
        case product, date, autoRenew
    }

    public var productId: String
    public var dateText: String
    public var autoRenew = true
    public var field = Field.product
    /// The manager's row to return to.
    public var managerSelection: Int

    public init(productId: String, dateText: String, managerSelection: Int) {
        self.productId = productId
        self.dateText = dateText
        self.managerSelection = managerSelection
    }

    /// A month before or after `text`'s date (or `fallback`, when the text is no date yet), as
    /// the App Store counts months: in the Gregorian calendar, in UTC.
    static func dateText(_ text: String, movedBy months: Int, fallback: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = .gmt
        let date = TransactionCreation.date(from: text) ?? fallback
        return TransactionCreation.text(of: calendar.date(byAdding: .month, value: months, to: date) ?? date)
    }

    /// What the date field takes from the keyboard: the characters of ISO 8601 and of milliseconds.
    static func accepts(_ character: Character) -> Bool {
        character.isASCII && (character.isNumber || "-:T Z+.".contains(character))
    }

    static let maxDateLength = 40
}

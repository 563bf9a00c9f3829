/// An enum whose cases go by their Swift names in JSON, on the wire and on screen
/// (`paymentCancelled`, `billingError`): the name, and the case back from it.
public protocol NamedCase: CaseIterable {}

extension NamedCase {
    public var name: String { String(describing: self) }

    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

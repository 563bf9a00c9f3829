/// An enum that goes by a name in JSON, on the wire and on screen (`paymentCancelled`,
/// `billingError`): the name, and the case back from it. Each enum spells its names out, so
/// renaming a case in Swift leaves what it writes as it was.
public protocol NamedCase: CaseIterable {
    /// The name written for the case.
    var name: String { get }
}

extension NamedCase {
    public init?(name: String) {
        guard let found = Self.allCases.first(where: { $0.name == name }) else { return nil }
        self = found
    }
}

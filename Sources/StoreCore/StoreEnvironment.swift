/// Apple's `Environment`: the store a receipt, a signed transaction or a notification comes
/// from, by the name Apple's payloads give it (raw values are the wire names).
public enum StoreEnvironment: String, Sendable, Hashable, CaseIterable, Codable, CustomStringConvertible {
    case sandbox = "Sandbox"
    case production = "Production"
    /// Xcode's own StoreKit testing, as a store in the storefront's process is.
    case xcode = "Xcode"
    /// Apple's libraries' environment for unit tests.
    case localTesting = "LocalTesting"

    public var description: String { rawValue }
}

import StoreCore

/// `GET /v1/accounts/{account}/retention-message/{productId}/{locale}`: the retention message
/// the cancellation sheet shows, absent when there is none.
public struct CancellationMessageResponse: Codable, Sendable {
    public let message: CancellationMessage?

    public init(message: CancellationMessage?) {
        self.message = message
    }
}

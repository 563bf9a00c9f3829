import StoreCore

/// A retention message as the command line prints it: the header, the body, the image by its
/// alternative text, the bullet points and what the message offers.
enum RetentionMessageText {
    static func lines(_ message: CancellationMessage) -> [String] {
        let image = message.imageAltText.map { ["  [image: \($0)]"] } ?? []
        let heading = ["retention message (\(message.source.rawValue)): \(message.header)"]
        var lines = message.headerAboveImage ? heading + image : image + heading
        lines.append("  \(message.body)")
        lines += message.bulletPoints.map { "  • \($0)" }
        if let product = message.switchToProductId { lines.append("  switch plan: \(product)") }
        if let offer = message.promotionalOfferId { lines.append("  promotional offer: \(offer)") }
        if let reason = message.fallbackReason { lines.append("  (default shown: \(reason))") }
        return lines
    }
}

import CellGrid
import StoreCore

extension Sheets {
    /// The cancellation sheet: the question, then the retention message as Apple lays it out
    /// (the header above the body, or above the image), an image by its alternative text.
    static func cancellation(_ sheet: CancelSubscription, _ state: AppState, _ strings: UIStrings) -> [Line] {
        let title = Presentation.title(state, product: sheet.productId)
        // As the App Store's, a commitment's cancellation counts the payments left.
        let question = Line(
            text: Presentation.commitmentInForce(state, transactionId: sheet.transactionId).map {
                strings.cancelCommitmentQuestion(title, number: $0.billingPeriodNumber, total: $0.totalBillingPeriods)
            } ?? strings.cancelQuestion(title), role: .title)
        switch sheet.message {
        case .loading: return [question, Line(text: ""), Line(text: strings.retentionLoading, role: .muted)]
        case .none: return [question]
        case .shown(let message):
            let image = message.imageAltText.map { [Line(text: strings.retentionImage($0), role: .muted)] } ?? []
            let header = [Line(text: message.header, role: .title)]
            var lines = [question, Line(text: "")] + (message.headerAboveImage ? header + image : image + header)
            lines.append(Line(text: message.body))
            lines += message.bulletPoints.map { Line(text: "• " + $0) }
            if let product = message.switchToProductId {
                lines.append(Line(text: strings.retentionSwitch(Presentation.title(state, product: product))))
            }
            if let offer = message.promotionalOfferId { lines.append(Line(text: strings.retentionOffer(offer))) }
            return lines
        }
    }
}

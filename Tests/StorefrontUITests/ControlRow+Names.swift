import StoreCore

@testable import StorefrontUI

/// The sheet's lines these tests name, looked up in the table by id: the lines come from
/// `TestControls.table`, so a line missing from it fails here rather than compiling away.
extension ControlRow {
    static func line(_ id: String) -> ControlRow {
        guard let row = named(id) else { preconditionFailure("the controls sheet has no line \(id)") }
        return row
    }

    static var everyPurchase: ControlRow { line("every-purchase") }
    static var productOutcome: ControlRow { line("product-outcome") }
    static var askToBuy: ControlRow { line("ask-to-buy") }
    static var timeRate: ControlRow { line("time-rate") }
    static var verification: ControlRow { line("verification") }
    static var billingIssues: ControlRow { line("billing-issues") }
    static var gracePeriod: ControlRow { line("grace-period") }
    static var apiErrors: ControlRow { line("api-error") }
    static var apiErrorCode: ControlRow { line("api-error-code") }
    static var autoApproveRefunds: ControlRow { line("auto-approve-refunds") }
}

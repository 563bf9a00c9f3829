import Foundation
import StoreKitModel

/// The words of a one-year subscription's two billing plans: up front, or monthly with a
/// 12-month commitment, which Apple requires an app to state in full before the purchase.
extension UIStrings {
    var billingLabel: String { pick("Billing", "付款方式") }

    func planName(_ plan: BillingPlanType) -> String {
        switch plan {
        case .upFront: pick("up front", "一次性付费")
        case .monthly: pick("monthly, 12-month commitment", "按月付费，承诺 12 个月")
        }
    }

    /// The purchase sheet's statement of the commitment: the monthly payment and the total, both
    /// formatted for the storefront.
    func commitmentTerms(monthly: String, total: String, payments: Int) -> String {
        pick(
            "\(payments) monthly payments of \(monthly), \(total) in total; cancel any time to stop the next commitment",
            "\(payments) 次月付，每次 \(monthly)，共 \(total)；可随时取消，以停止下一期承诺")
    }

    /// The details sheet's two pricing terms: "Up front: 59,99 €/year".
    func upFrontTerms(_ price: String) -> String { pick("Up front: \(price)", "一次性付费：\(price)") }

    /// "Monthly: 4,99 €/month for 12 months (59,88 € in total)".
    func monthlyTerms(_ monthly: String, months: Int, total: String) -> String {
        pick(
            "Monthly: \(monthly) for \(months) months (\(total) in total)",
            "按月付费：\(monthly)，共 \(months) 个月（合计 \(total)）")
    }

    /// Where a monthly payment stands in its commitment: "payment 4 of 12".
    func commitmentProgress(_ commitment: TransactionCommitment) -> String {
        pick(
            "payment \(commitment.billingPeriodNumber) of \(commitment.totalBillingPeriods)",
            "第 \(commitment.billingPeriodNumber)/\(commitment.totalBillingPeriods) 期付款")
    }

    /// Auto-renew turned off mid-commitment: the payments left are billed, then it ends.
    func commitmentEnds(after total: Int) -> String {
        pick("ends after payment \(total) of \(total)", "第 \(total)/\(total) 期付款后结束")
    }

    /// The transaction manager's short mark of a monthly payment: "4/12", with the plan's name
    /// where the screen is wide.
    func commitmentFlag(_ commitment: TransactionCommitment, wide: Bool) -> String {
        let place = "\(commitment.billingPeriodNumber)/\(commitment.totalBillingPeriods)"
        return wide ? pick("monthly \(place)", "按月 \(place)") : place
    }

    func cancelledCommitment(_ title: String, total: Int) -> String {
        pick(
            "\(title) cancelled: the commitment's payments left are billed, and it ends after payment \(total).",
            "已取消“\(title)”：承诺期内剩余的付款照常扣费，第 \(total) 期付款后结束。")
    }

    func cancelCommitmentQuestion(_ title: String, number: Int, total: Int) -> String {
        pick(
            "Cancel \(title)? You are at payment \(number) of \(total): the payments left are billed, and it ends after payment \(total).",
            "取消“\(title)”？当前为第 \(number)/\(total) 期付款：剩余的付款照常扣费，第 \(total) 期付款后结束。")
    }
}

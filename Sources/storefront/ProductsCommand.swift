import ArgumentParser
import Foundation
import StoreClient
import StoreCore
import StoreKitModel

struct ProductsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "products",
        abstract: "Run a products request and print the products and the invalid identifiers.",
        discussion: """
            Like SKProductsRequest: the products the store sells in the storefront, with prices in its
            currency, plus invalidProductIdentifiers for unknown, removed or unavailable ids. Without
            --ids every id in the catalog is requested, so removed products show up as invalid.
            """
    )

    @OptionGroup var options: CatalogOptions

    @Option(name: .long, help: ArgumentHelp("Product identifiers to request, comma-separated.", valueName: "a,b,c"))
    var ids: String?

    @Flag(name: .long, help: "Print one JSON object instead of a table.")
    var json = false

    @Flag(
        name: .long,
        help:
            "Print only how many products and invalid identifiers the response has (the catalog is still loaded and validated in full)."
    )
    var countOnly = false

    @Option(
        name: .long,
        help: ArgumentHelp(
            "State directory whose store says which offers the account may take (--json). Default: as buy's.",
            valueName: "dir"))
    var state: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Test account whose storefront the products are priced in (unless --storefront) and whose offer eligibility --json reports. Default: the store's, else the catalog's first.",
            valueName: "name"))
    var account: String?

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Ask the store served at this URL (storefront serve): its catalog, and its answer to the products request (simulated load-products errors included). Default: $STOREFRONT_STORE.",
            valueName: "url"))
    var store: String?

    func run() async throws {
        let url = try StoreOptions.storeURL(flag: store, ProcessInfo.processInfo.environment)
        let policy = RetryPolicy.standard
        let context = try await options.resolve(
            defaultCatalog: url.map { "\($0)/v1/catalog" } ?? "products.json",
            defaultRetryBudget: url == nil ? .zero : policy.budget,
            store: url.map { (url: $0, requestTimeout: policy.requestTimeout) }, account: account)
        if let notice = context.notice { Console.err("storefront: note: \(notice)") }
        let listed = ids.map {
            $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        }
        let requested = { listed ?? context.catalog.allProductIds }
        if state?.isEmpty == true {
            throw CommandFailure.usage("--state needs a directory; an empty value would quietly use the default one")
        }
        if let account, context.catalog.account(named: account) == nil {
            let known = context.catalog.accounts.map(\.name).joined(separator: ", ")
            throw CommandFailure.usage("--account \(account): not an account of this catalog (it has \(known))")
        }
        if countOnly, url == nil {
            // The counts alone: no list of every id, and no response holding every product.
            try print(ProductCounts(context.catalog.requestCounts(ids: listed, storefront: context.storefront)))
            return KeptUntilExit.keep(context)
        }
        let response: ProductsResponse
        var standing: OfferStanding?
        if let url {
            do {
                let remote = RemoteStore(url: url, catalog: context.catalog, policy: policy)
                response = try await remote.products(ids: requested(), storefront: context.storefront.id)
                if json && !countOnly {
                    standing = try await OfferStanding.remote(remote, catalog: context.catalog, account: account)
                }
            } catch let error as StoreError {
                // As SKProductsRequest's request:didFailWithError: reports it.
                let code = "\(error.domain == "SKErrorDomain" ? "SKError" : "URLError") \(error.code) \(error.name)"
                throw CommandFailure.failure(
                    "the products request to \(url) failed with \(code): \(error.text(in: context.language).message)")
            } catch {
                throw CommandFailure.failure("the products request to \(url) failed: \(error)")
            }
        } else {
            response = context.catalog.request(ids: requested(), storefront: context.storefront)
            if json && !countOnly {
                do {
                    standing = try await OfferStanding.local(catalog: context.catalog, state: state, account: account)
                } catch let failure as StoreFailure {
                    throw CommandFailure.failure(failure.message)
                }
            }
        }
        if countOnly {
            try print(ProductCounts(ProductsResponse.Counts(response: response)))
        } else if json {
            Console.json(try JSONOutput.encode(ProductsJSON(context: context, response: response, standing: standing)))
        } else {
            Console.out(lines: ProductTable(context: context, response: response).render())
        }
        KeptUntilExit.keep((context, response))
    }

    private func print(_ counts: ProductCounts) throws {
        if json { Console.json(try JSONOutput.encode(counts)) } else { Console.out(counts.text) }
    }
}

/// `storefront products --count-only [--json]`: the size of the response without its contents.
struct ProductCounts: Encodable {
    let storefront: String
    let products: Int
    let invalidProductIdentifiers: Int
    let unavailableInStorefront: Int

    init(_ counts: ProductsResponse.Counts) {
        storefront = counts.storefront.id
        products = counts.products
        invalidProductIdentifiers = counts.invalidProductIdentifiers
        unavailableInStorefront = counts.unavailableInStorefront
    }

    var text: String {
        "\(storefront): \(products) product\(products == 1 ? "" : "s"), \(invalidProductIdentifiers) invalid identifier\(invalidProductIdentifiers == 1 ? "" : "s") (\(unavailableInStorefront) not sold in \(storefront))"
    }
}

/// `storefront products --json`: field names are a contract with scripts and tests.
struct ProductsJSON: Encodable {
    struct Item: Encodable {
        let id: String
        let type: String
        let title: String
        let description: String
        let price: String
        let displayPrice: String
        let subscriptionPeriod: String?
        /// The group's id as the catalog has it (a `.storekit` file's internal id).
        let subscriptionGroup: String?
        /// The group's name in the catalog's language, where the catalog names it.
        let subscriptionGroupName: String?
        /// Auto-renewable subscriptions: the introductory offer, then promotional, code and win-back offers.
        let offers: [Offer]?
        /// Auto-renewable subscriptions: one entry per billing plan offered in the storefront
        /// (`Product.SubscriptionInfo.pricingTerms`), up front first.
        let pricingTerms: [PricingTerms]?
    }

    /// `Product.SubscriptionInfo.PricingTerms`: how one billing plan is paid.
    struct PricingTerms: Encodable {
        /// `upFront` or `monthly` (with a 12-month commitment).
        let billingPlanType: String
        /// What one payment grants: the product's period up front, `P1M` on the monthly plan.
        let billingPeriod: String
        /// One payment, an exact decimal, and formatted.
        let price: String
        let displayPrice: String
        /// The monthly plan: what the commitment's payments total, and how many there are.
        let commitmentPrice: String?
        let commitmentDisplayPrice: String?
        let totalBillingPeriods: Int?
        /// The plan's own offers (App Store Connect sets offers per plan), as `offers` lists them.
        let offers: [Offer]
    }

    /// `Product.SubscriptionOffer`: `id` is absent for the introductory offer, which has none.
    struct Offer: Encodable {
        let id: String?
        /// `introductory`, `promotional`, `code` or `winBack`.
        let type: String
        /// `freeTrial`, `payAsYouGo` or `payUpFront`; `oneTime` for the offer code of a consumable,
        /// a non-consumable or a non-renewing subscription, which has no period.
        let paymentMode: String
        let period: String?
        let periods: Int?
        /// The price of one period (pay as you go) or of the whole offer, formatted; $0.00 for a free trial.
        let displayPrice: String
        /// Whether the account may take the offer now, by the rule the store applies.
        let eligible: Bool?
        /// When not eligible: why, as a stable name (`neverSubscribed`, `introOfferUsed`, …).
        let ineligibleReason: String?
        /// When not eligible: why, in one English sentence.
        let ineligibleMessage: String?

        init(
            id: String?, type: OfferType, terms: IntroOffer, storefront: String, formatter: PriceFormatter,
            verdict: OfferEligibility.Verdict?
        ) {
            self.id = id
            self.type = type.rawValue
            paymentMode = terms.paymentMode.rawValue
            period = terms.period.iso8601
            periods = terms.periods
            displayPrice = formatter.string(terms.firstPayment(in: storefront) ?? 0)
            eligible = verdict?.isEligible
            ineligibleReason = verdict?.reason?.name
            ineligibleMessage = verdict?.reason?.message
        }

        /// A consumable's, a non-consumable's or a non-renewing subscription's offer code.
        init(
            oneTime offer: OneTimeOffer, storefront: String, formatter: PriceFormatter,
            verdict: OfferEligibility.Verdict?
        ) {
            id = offer.id
            type = OfferType.code.rawValue
            paymentMode = IntroOffer.PaymentMode.oneTime.rawValue
            period = nil
            periods = nil
            displayPrice = offer.prices[storefront].map(formatter.string) ?? "—"
            eligible = verdict?.isEligible
            ineligibleReason = verdict?.reason?.name
            ineligibleMessage = verdict?.reason?.message
        }
    }

    let storefront: String
    let currency: String
    let locale: String
    /// The account whose offer eligibility the offers report.
    let account: String?
    let products: [Item]
    let invalidProductIdentifiers: [String]
    let unavailableInStorefront: [String]

    init(context: CatalogContext, response: ProductsResponse, standing: OfferStanding? = nil) {
        let formatter = context.priceFormatter
        account = standing?.account
        storefront = context.storefront.id
        currency = context.storefront.currency
        locale = context.locale
        products = response.products.map { product in
            let amount = product.prices[context.storefront.id] ?? 0
            let period = product.subscription?.period
            return Item(
                id: product.id, type: product.type.rawValue,
                title: product.title.text(in: context.language),
                description: product.description.text(in: context.language),
                price: amount.exactString,
                displayPrice: formatter.string(amount),
                subscriptionPeriod: period?.iso8601,
                subscriptionGroup: product.subscription?.group,
                subscriptionGroupName: product.subscription?.group.flatMap {
                    context.catalog.group(id: $0)?.title.text(in: context.language)
                },
                offers: Self.offers(
                    product, plan: .upFront, storefront: context.storefront.id, formatter: formatter,
                    standing: standing),
                pricingTerms: Self.pricingTerms(
                    product, storefront: context.storefront.id, formatter: formatter, standing: standing))
        }
        invalidProductIdentifiers = response.invalidProductIdentifiers
        unavailableInStorefront = response.unavailableInStorefront
    }

    /// `plan`'s offers: its introductory offer, then its promotional, code and win-back offers.
    static func offers(
        _ product: Product, plan: BillingPlanType, storefront: String, formatter: PriceFormatter,
        standing: OfferStanding?
    ) -> [Offer]? {
        guard product.type == .autoRenewable, let subscription = product.subscription else {
            // A consumable, a non-consumable or a non-renewing subscription: its offer codes.
            guard !product.codeOffers.isEmpty else { return nil }
            return product.codeOffers.map {
                Offer(oneTime: $0, storefront: storefront, formatter: formatter, verdict: standing?.verdict($0))
            }
        }
        let intro = subscription.introOffer(for: plan).map {
            Offer(
                id: nil, type: .introductory, terms: $0, storefront: storefront, formatter: formatter,
                verdict: standing?.introductory(product))
        }
        return (intro.map { [$0] } ?? [])
            + subscription.offers.filter { $0.billingPlan == plan }.map {
                Offer(
                    id: $0.id, type: $0.kind.offerType, terms: $0.terms, storefront: storefront, formatter: formatter,
                    verdict: standing?.verdict($0, of: product))
            }
    }

    static func pricingTerms(
        _ product: Product, storefront: String, formatter: PriceFormatter, standing: OfferStanding?
    ) -> [PricingTerms]? {
        guard product.type == .autoRenewable, let subscription = product.subscription else { return nil }
        return subscription.billingPlans(in: storefront).compactMap { plan in
            guard let price = product.billingPrice(plan, in: storefront) else { return nil }
            let total = plan == .monthly ? subscription.commitment?.commitmentPrice(in: storefront) : nil
            return PricingTerms(
                billingPlanType: plan.rawValue,
                billingPeriod: (plan == .monthly ? CommitmentPlan.billingPeriod : subscription.period).iso8601,
                price: price.exactString, displayPrice: formatter.string(price),
                commitmentPrice: total?.exactString, commitmentDisplayPrice: total.map(formatter.string),
                totalBillingPeriods: total.map { _ in CommitmentPlan.totalBillingPeriods },
                offers: offers(product, plan: plan, storefront: storefront, formatter: formatter, standing: standing)
                    ?? [])
        }
    }
}

enum JSONOutput {
    /// Compact JSON, one line, for `Console.json`.
    static func encode<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}

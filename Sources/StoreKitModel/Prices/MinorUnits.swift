/// How many decimals a currency's prices take (ISO 4217's minor units), as every rounding of
/// money in the store follows it.
public enum MinorUnits {
    public static func of(_ currency: String) -> Int {
        PriceText.zeroDecimalCurrencies.contains(currency) ? 0 : 2
    }
}

import StoreServer

/// The secret comparison behind the admin token and verifyReceipt's shared secret, timed with the
/// first difference at the start and at the end of a 4 MiB secret. With a plain `==` the first
/// returns thousands of times sooner; a ratio near 1 shows no timing side channel. The two are
/// timed in turn, so load on the machine hits both alike.
struct ConstantTimeFigures: Encodable {
    let wrongFirst: Stats
    let wrongLast: Stats
    /// wrongFirst over wrongLast, medians.
    let ratio: Double
}

func constantTimeFigures(runs: Int) -> ConstantTimeFigures {
    let size = 4 * 1024 * 1024
    let secret = String(repeating: "a", count: size)
    let wrongFirst = "b" + String(repeating: "a", count: size - 1)
    let wrongLast = String(repeating: "a", count: size - 1) + "b"
    let (first, last) = measureAlternately(
        warmup: 1, runs: runs, { ConstantTime.equal(wrongFirst, secret) ? 1 : 0 },
        { ConstantTime.equal(wrongLast, secret) ? 1 : 0 })
    return ConstantTimeFigures(wrongFirst: first, wrongLast: last, ratio: first.median / max(last.median, 1e-9))
}

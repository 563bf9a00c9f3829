#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A monotonic clock in nanoseconds.
func now() -> UInt64 {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec)
}

/// Keeps results alive so the optimizer cannot drop the work that made them.
nonisolated(unsafe) var sink = 0

@inline(never)
func consume(_ value: Int) {
    sink &+= value
}

/// Samples of one figure in milliseconds, with the statistics the report shows.
struct Stats: Encodable {
    let samples: [Double]
    let median: Double
    let p90: Double
    let min: Double
    let max: Double

    init(milliseconds samples: [Double]) {
        self.samples = samples
        let sorted = samples.sorted()
        median = Self.percentile(sorted, 0.5)
        p90 = Self.percentile(sorted, 0.9)
        min = sorted.first ?? 0
        max = sorted.last ?? 0
    }

    /// Nearest-rank percentile (the median of an even count is the mean of the middle two).
    static func percentile(_ sorted: [Double], _ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return 0 }
        if fraction == 0.5, sorted.count % 2 == 0 {
            return (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
        }
        let rank = Int((fraction * Double(sorted.count)).rounded(.up)) - 1
        return sorted[Swift.max(0, Swift.min(sorted.count - 1, rank))]
    }

    enum CodingKeys: String, CodingKey { case median, p90, min, max, count }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(median, forKey: .median)
        try container.encode(p90, forKey: .p90)
        try container.encode(min, forKey: .min)
        try container.encode(max, forKey: .max)
        try container.encode(samples.count, forKey: .count)
    }
}

/// Runs `body` `warmup` times unmeasured, then `runs` times measured; `body` returns a value
/// that is consumed so its work stays.
func measure(warmup: Int, runs: Int, _ body: () -> Int) -> Stats {
    measureInTurns(warmup: warmup, runs: runs, count: 1) { _ in body() }[0]
}

/// Two bodies measured in turns, run by run, so drift on a busy machine falls on both alike.
func measureAlternately(warmup: Int, runs: Int, _ first: () -> Int, _ second: () -> Int) -> (Stats, Stats) {
    let stats = measureInTurns(warmup: warmup, runs: runs, count: 2) { $0 == 0 ? first() : second() }
    return (stats[0], stats[1])
}

/// `body(i)` for each of `count` bodies once per run, the first one rotating from run to run.
private func measureInTurns(warmup: Int, runs: Int, count: Int, _ body: (Int) -> Int) -> [Stats] {
    for _ in 0..<warmup { for index in 0..<count { consume(body(index)) } }
    var samples = [[Double]](repeating: [], count: count)
    for run in 0..<runs {
        for turn in 0..<count {
            let index = (run + turn) % count
            let start = now()
            let result = body(index)
            let end = now()
            consume(result)
            samples[index].append(Double(end - start) / 1_000_000)
        }
    }
    return samples.map { Stats(milliseconds: $0) }
}

func format(_ milliseconds: Double) -> String {
    if milliseconds >= 100 { return String(Int(milliseconds.rounded())) + " ms" }
    if milliseconds >= 1 { return fixed(milliseconds, 2) + " ms" }
    return fixed(milliseconds * 1000, 1) + " µs"
}

func fixed(_ value: Double, _ digits: Int) -> String {
    var scale = 1.0
    for _ in 0..<digits { scale *= 10 }
    let rounded = (value * scale).rounded() / scale
    var text = String(rounded)
    if let dot = text.firstIndex(of: ".") {
        let decimals = text.distance(from: dot, to: text.endIndex) - 1
        if decimals < digits { text += String(repeating: "0", count: digits - decimals) }
    } else if digits > 0 {
        text += "." + String(repeating: "0", count: digits)
    }
    return text
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
}

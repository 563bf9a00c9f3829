/// SplitMix64: small, fast and fully specified, so every platform gives the same sequence. The
/// catalog generator's, and the seeded tests' (monkey, fuzz-style and crash tests).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public var state: UInt64

    public init(state: UInt64) {
        self.state = state
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in 0..<bound (bound > 0); the tiny modulo bias does not matter here.
    public mutating func below(_ bound: Int) -> Int {
        Int(next() % UInt64(bound))
    }

    public mutating func pick<T>(_ items: [T]) -> T {
        items[below(items.count)]
    }

    /// True with probability `percent`/100.
    public mutating func chance(_ percent: Int) -> Bool {
        below(100) < percent
    }
}

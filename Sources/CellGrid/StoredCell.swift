/// A cell as `Grid` keeps it: the character as a number, so the cell holds no reference and a
/// frame's cells are made, copied and freed as plain memory.
struct StoredCell: Equatable, Sendable {
    /// The character's scalar value when it is one scalar (nearly always); `cluster` plus an index
    /// into the grid's `clusters` when it is several; `continuation` for the right half of a wide one.
    var code: UInt32
    var role: Role
    var attributes: Attributes

    /// Above every scalar value (at most 0x10FFFF).
    static let cluster: UInt32 = 0x8000_0000
    static let continuation: UInt32 = 0xFFFF_FFFF
    static let space: UInt32 = 0x20

    var isContinuation: Bool { code == Self.continuation }
    var isCluster: Bool { code & Self.cluster != 0 && code != Self.continuation }
    /// Where a cluster's character is in the grid's `clusters`.
    var clusterIndex: Int { Int(code & ~Self.cluster) }
}

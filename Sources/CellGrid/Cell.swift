/// One terminal cell. A character that takes two cells (CJK, most emoji) sits in its left cell and
/// the right cell holds `.continuation`, so column arithmetic stays in cells.
public struct Cell: Hashable, Sendable {
    public enum Content: Hashable, Sendable {
        case character(Character)
        /// The right half of the wide character in the cell to the left.
        case continuation
    }

    public var content: Content
    public var role: Role
    public var attributes: Attributes

    public init(_ character: Character = " ", role: Role = .normal, attributes: Attributes = []) {
        self.content = .character(character)
        self.role = role
        self.attributes = attributes
    }

    init(content: Content, role: Role, attributes: Attributes) {
        self.content = content
        self.role = role
        self.attributes = attributes
    }

    public static let blank = Cell()

    public var character: Character? {
        if case .character(let character) = content { return character }
        return nil
    }

    public var isContinuation: Bool { content == .continuation }
}

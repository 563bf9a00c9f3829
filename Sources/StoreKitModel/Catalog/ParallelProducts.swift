import Foundation
import JSONReading
import Synchronization

/// The products of a large catalog read in parts, one per core, at the same time.
///
/// Where each part begins is a guess: the first `{` that follows `}` and `,` (whitespace allowed
/// between) after an even share of the bytes. That text could sit inside a string, so a guess
/// counts only when the part before it, read element by element from a start already confirmed,
/// ends exactly there; the last part must end at the array's closing bracket. Every product is
/// read straight from the bytes (`ProductsDecoder.directProduct`), and the parts are joined only
/// if each was read whole and no id appears in two of them.
///
/// Anything else (a product that needs the tree reading, a wrong guess, an array that is not last
/// in the file) gives nil, and the parser reads the products one by one as before, which gives
/// the same products or says what is wrong: a valid catalog loads sooner, and any other loads as
/// it always did.
enum ParallelProducts {
    /// Below this, one core is done before several would have started.
    static let minimumBytes = 1 << 20
    static let maximumParts = 8

    /// What the parts read together.
    struct Whole {
        let products: [Product]
        /// Each product's position by id.
        let index: [String: Int]
        /// Just after the array's closing bracket.
        let end: Int
    }

    /// The products from the cursor (at the array's first element) to the array's end.
    static func read(
        from cursor: Cursor, decoder: ProductsDecoder, mapped: MappedFile?,
        cores: Int
    ) -> Whole? {
        let bytes = cursor.bytes
        let (first, span, count) = (cursor.index, bytes.count - cursor.index, min(cores, maximumParts))
        guard count > 1, span >= minimumBytes else { return nil }
        var starts = [first]
        for part in 1..<count {
            if let start = likelyElementStart(in: bytes, from: first + span / count * part),
                start > starts[starts.count - 1]
            {
                starts.append(start)
            }
        }
        guard starts.count > 1 else { return nil }
        var parts = [Part?](repeating: nil, count: starts.count)
        parts.withUnsafeMutableBufferPointer { slots in
            let job = Job(
                bytes: bytes, starts: starts, depth: cursor.depth, decoder: decoder, mapped: mapped, slots: slots,
                abandoned: Abandoned())
            DispatchQueue.concurrentPerform(iterations: starts.count) { part in job.run(part) }
        }
        return join(&parts)
    }

    /// What the parts share while they run. Unchecked: the bytes, the starts and the decoder are
    /// only read (each part reads with its own fork of the decoder), and each part writes its own
    /// slot only; nothing else looks at the slots until every part is done.
    private struct Job: @unchecked Sendable {
        let bytes: UnsafeBufferPointer<UInt8>
        let starts: [Int]
        let depth: Int
        let decoder: ProductsDecoder
        let mapped: MappedFile?
        let slots: UnsafeMutableBufferPointer<Part?>
        let abandoned: Abandoned

        func run(_ part: Int) {
            slots[part] = read(
                bytes, from: starts[part], until: part + 1 < starts.count ? starts[part + 1] : nil,
                depth: depth, decoder: decoder.forked(), mapped: mapped, abandoned: abandoned)
            if slots[part] == nil { abandoned.flag.store(true, ordering: .relaxed) }
        }
    }

    /// Set by the first part that cannot be read whole: every product is then read again one by
    /// one, so the other parts stop at their next product instead of reading on for nothing.
    private final class Abandoned: Sendable {
        let flag = Atomic<Bool>(false)
    }

    private struct Part {
        let products: ProductRun
        /// Each id read, with its index in the part.
        var ids: [String: Int]
        /// Where the part ended: where the next begins, or just after the array's closing bracket.
        var end: Int
    }

    /// The products from `start`, one after another, until `next` (the next part's start) or, for
    /// the last part (`next` nil), through the closing bracket. Nil unless it ends exactly there.
    private static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, until next: Int?, depth: Int,
        decoder: ProductsDecoder, mapped: MappedFile?, abandoned: Abandoned
    ) -> Part? {
        var decoder = decoder
        var cursor = Cursor(bytes: bytes)
        (cursor.index, cursor.depth) = (start, depth)
        var pages = mapped.map { PageRelease($0, from: start) }
        let products = ProductRun()
        while !abandoned.flag.load(ordering: .relaxed) {
            guard let product = decoder.directProduct(&cursor, index: products.count) else { return nil }
            products.append(product)
            pages?.advance(to: cursor.index)
            cursor.skipWhitespace()
            if cursor.next(is: "]") {
                return next == nil ? Part(products: products, ids: decoder.firstSeen, end: cursor.index + 1) : nil
            }
            guard cursor.next(is: ",") else { return nil }
            cursor.index += 1
            cursor.skipWhitespace()
            if let next, cursor.index >= next {
                return cursor.index == next ? Part(products: products, ids: decoder.firstSeen, end: next) : nil
            }
        }
        return nil
    }

    /// The parts' products in order, if every part was read and no id repeats across parts. The
    /// first part's ids are taken over and the others' added; every product is moved, not copied.
    private static func join(_ parts: inout [Part?]) -> Whole? {
        guard parts.allSatisfy({ $0 != nil }), var index = parts[0]?.ids else { return nil }
        parts[0]?.ids = [:]
        let total = parts.reduce(0) { $0 + ($1?.products.count ?? 0) }
        index.reserveCapacity(total)
        var offset = parts[0]?.products.count ?? 0
        for case let part? in parts.dropFirst() {
            // Every product of a part was read, so its ids are its positions, after the parts before it.
            for (id, position) in part.ids where index.updateValue(offset + position, forKey: id) != nil { return nil }
            offset += part.products.count
        }
        let products = [Product](unsafeUninitializedCapacity: total) { buffer, initialized in
            for case let part? in parts {
                guard let start = buffer.baseAddress else { return }
                let count = part.products.count
                part.products.move(to: start + initialized)
                initialized += count
            }
        }
        return Whole(products: products, index: index, end: parts[parts.count - 1]?.end ?? 0)
    }

    /// The first `{` at or after `offset` that follows `,` and `}`, whitespace allowed between:
    /// where an element of an array of objects would begin. Only a guess (see above).
    static func likelyElementStart(in bytes: UnsafeBufferPointer<UInt8>, from offset: Int) -> Int? {
        /// The last byte before `position` that is not JSON whitespace, if any.
        func previous(_ position: Int) -> Int? {
            var index = position - 1
            while index >= 0 {
                switch bytes[index] {
                case 0x20, 0x0A, 0x0D, 0x09: index -= 1
                default: return index
                }
            }
            return nil
        }
        for position in max(offset, 0)..<bytes.count where bytes[position] == UInt8(ascii: "{") {
            if let comma = previous(position), bytes[comma] == UInt8(ascii: ","),
                let close = previous(comma), bytes[close] == UInt8(ascii: "}")
            {
                return position
            }
        }
        return nil
    }
}

/// One part's products, in memory of their own, so the join moves them into the catalog's array
/// instead of copying each (a retain per string and table) and then freeing the copy (a release
/// per string and table): for 10,000 products that pair was a tenth of the whole join.
/// Unchecked: a run belongs to one part at a time (filled on its thread, then joined on the caller's).
final class ProductRun: @unchecked Sendable {
    private(set) var count = 0
    private var capacity = 64
    private var base: UnsafeMutablePointer<Product>

    init() {
        base = .allocate(capacity: capacity)
    }

    deinit {
        base.deinitialize(count: count)
        base.deallocate()
    }

    func append(_ product: consuming Product) {
        if count == capacity {
            let larger = UnsafeMutablePointer<Product>.allocate(capacity: capacity * 2)
            larger.moveInitialize(from: base, count: count)
            base.deallocate()
            (base, capacity) = (larger, capacity * 2)
        }
        (base + count).initialize(to: product)
        count += 1
    }

    /// Moves every product to `destination`, uninitialized memory for `count` of them; the run is left empty.
    func move(to destination: UnsafeMutablePointer<Product>) {
        destination.moveInitialize(from: base, count: count)
        count = 0
    }
}

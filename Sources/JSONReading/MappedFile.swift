#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A large catalog file mapped into memory instead of copied: the parser reads it in place, and
/// the pages it has gone past are given back (`PageRelease`), so loading a 100,000-product
/// catalog holds the catalog in memory, not the catalog and its 80 MB file as well. Pages given
/// back are read again from the page cache if anything reads them again (an error message, or a
/// reader of the neighbouring part on another core): the mapping is private and never written.
///
/// Immutable once made, and `madvise` may be called from any thread: readers on several cores
/// share one.
///
/// Only files of `threshold` bytes or more are mapped: a small file is cheaper to read, and a
/// mapped file that another program truncates while it is parsed ends the process (SIGBUS), a
/// risk worth taking only where memory is at stake.
package final class MappedFile: @unchecked Sendable {
    package static let threshold = 16 * 1024 * 1024

    package let bytes: UnsafeBufferPointer<UInt8>
    private let base: UnsafeMutableRawPointer
    private let length: Int
    /// Pages are given back when this many bytes or more lie behind a reader.
    let releaseStep: Int
    private static let pageSize = max(4096, sysconf(Int32(_SC_PAGESIZE)))

    private init(base: UnsafeMutableRawPointer, length: Int, releaseStep: Int) {
        self.base = base
        self.length = length
        self.releaseStep = releaseStep
        bytes = UnsafeBufferPointer(start: base.assumingMemoryBound(to: UInt8.self), count: length)
    }

    deinit {
        munmap(base, length)
    }

    /// A file over the reader's limit: mapping it would only defer the refusal.
    package struct TooLarge: Error, Sendable {
        package let size: Int
    }

    /// The file mapped read-only, or nil when it is not a regular file of at least `threshold`
    /// bytes (or cannot be mapped): the caller then reads it the usual way, with its messages.
    /// Throws `TooLarge` for a file over `limit` bytes.
    package static func openIfLarge(
        _ path: String, threshold: Int = threshold, limit: Int,
        releaseStep: Int = 4 * 1024 * 1024
    ) throws(TooLarge) -> MappedFile? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFREG else { return nil }
        let size = Int(status.st_size)
        guard size >= threshold, size > 0 else { return nil }
        if size > limit {
            throw TooLarge(size: size)
        }
        guard let base = mmap(nil, size, PROT_READ, MAP_PRIVATE, descriptor, 0), base != MAP_FAILED else { return nil }
        _ = madvise(base, size, MADV_SEQUENTIAL)
        return MappedFile(base: base, length: size, releaseStep: releaseStep)
    }

    /// Gives back the whole pages from the one holding `range`'s start to the last one that ends
    /// before its end. The first may hold bytes a reader of the part before still reads: they are
    /// read again from the page cache if so.
    package func release(_ range: Range<Int>) {
        let start = range.lowerBound / Self.pageSize * Self.pageSize
        let end = min(range.upperBound, length) / Self.pageSize * Self.pageSize
        guard end > start else { return }
        _ = madvise(base + start, end - start, MADV_DONTNEED)
    }
}

/// The pages behind one reader moving forward through a mapped file, given back a step at a time.
package struct PageRelease {
    package let file: MappedFile
    private var released: Int

    package init(_ file: MappedFile, from start: Int = 0) {
        self.file = file
        released = start
    }

    /// The reader is done with every byte before `offset`.
    package mutating func advance(to offset: Int) {
        guard offset - released >= file.releaseStep else { return }
        file.release(released..<offset)
        released = offset
    }
}

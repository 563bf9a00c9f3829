#if canImport(Glibc)
    import Glibc

    private let systemRead = Glibc.read
#elseif canImport(Darwin)
    import Darwin

    private let systemRead = Darwin.read
#endif

/// A file's bytes read straight into an array (one copy, no `Data` in between), up to a limit:
/// the reading a parser needs before it starts, whatever the file is (a regular file in one read,
/// a pipe or a device in steps until it ends).
package enum FileBytes {
    /// Why a file's bytes could not be read, for the caller to word.
    package enum Failure: Error, Sendable, Equatable {
        case notFound
        case notPermitted
        case directory
        /// Larger than the limit.
        case tooLarge
        /// Any other failure, as the C library describes it.
        case failed(String)
    }

    package static func read(_ path: String, limit: Int) throws(Failure) -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            let code = errno
            switch code {
            case ENOENT, ENOTDIR: throw .notFound
            case EACCES: throw .notPermitted
            default: throw .failed(String(cString: strerror(code)))
            }
        }
        defer { close(descriptor) }
        var status = stat()
        if fstat(descriptor, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR { throw .directory }
        if (status.st_mode & S_IFMT) == S_IFREG, Int(status.st_size) > limit { throw .tooLarge }
        // A regular file's size is known: one read. A pipe or a device is read in steps until it ends.
        var step = min(max(Int(status.st_size), 0) + 1, limit + 1)
        var (bytes, failure) = readChunk(descriptor, upTo: step)
        var filled = bytes.count == step  // there may be more
        while failure == 0, filled, bytes.count <= limit {
            step = min(max(step, 1 << 20), limit + 1 - bytes.count)
            let (more, error) = readChunk(descriptor, upTo: step)
            bytes += more
            (failure, filled) = (error, more.count == step)
        }
        if failure != 0 { throw .failed(String(cString: strerror(failure))) }
        if bytes.count > limit { throw .tooLarge }
        return bytes
    }

    /// Up to `limit` bytes read from `descriptor` (fewer only at its end), and the error that stopped it, if any.
    private static func readChunk(_ descriptor: Int32, upTo limit: Int) -> ([UInt8], Int32) {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: limit) { buffer, count in
            count = 0
            guard let base = buffer.baseAddress else { return }
            while count < buffer.count {
                let got = systemRead(descriptor, base + count, buffer.count - count)
                if got > 0 {
                    count += got
                } else if got == 0 || errno != EINTR {
                    failure = got < 0 ? errno : 0
                    return
                }
            }
        }
        return (bytes, failure)
    }
}

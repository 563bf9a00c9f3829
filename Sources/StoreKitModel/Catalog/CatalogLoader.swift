import Foundation
import JSONReading

/// The two catalog formats Storefront reads.
public enum CatalogFormat: String, Sendable {
    /// Storefront's own `products.json` format.
    case native
    /// Xcode's StoreKit configuration file.
    case storeKitConfiguration

    /// `.storekit` by name; otherwise by shape: Xcode files have a `version` object and no `format`.
    static func detect(source: String, root: JSONValue) -> CatalogFormat {
        if source.lowercased().hasSuffix(".storekit") { return .storeKitConfiguration }
        guard case .object(let object) = root, object["format"] == nil else { return .native }
        if case .object = object["version"] { return .storeKitConfiguration }
        if object["settings"] != nil || object["nonRenewingSubscriptions"] != nil { return .storeKitConfiguration }
        return .native
    }
}

/// Loads and validates a catalog from a file path or an `http(s)://` URL.
public enum CatalogLoader {
    /// A 100,000-product catalog is about 60 MB; anything much larger is not a catalog.
    public static let maxBytes = 256 * 1024 * 1024

    /// Throws `CatalogError` (untyped here: typed throws in async code crashes Swift 6.3's compiler).
    /// `retryingFor`: how long a download that failed for a reason that passes (no connection, the
    /// connection lost, HTTP 502, 503 or 504) is tried again, with backoff. A client that takes its
    /// catalog from its store gives the store's retry budget, so a relaunch while the server restarts
    /// waits for it instead of failing. `fetcher` makes the one GET of a download; nil where only
    /// files are read (a URL is then refused with a message).
    public static func load(
        from location: String, retryingFor budget: Duration = .zero,
        fetcher: (any CatalogFetching)?
    ) async throws -> Catalog {
        if isURL(location) {
            return try decode(await download(location, retryingFor: budget, fetcher: fetcher), source: location)
        }
        if let mapped = try mapIfLarge(location) {
            // Pages behind the parser are handed back as it goes: peak memory is the catalog, not the file too.
            return try withExtendedLifetime(mapped) { () throws(CatalogError) in
                try decode(mapped.bytes, source: location, mapped: mapped)
            }
        }
        return try decode(try readFile(location), source: location)
    }

    /// The catalog's bytes as read from a file or downloaded, for a server that serves them on.
    public static func bytes(from location: String, fetcher: (any CatalogFetching)?) async throws -> [UInt8] {
        if isURL(location) {
            return try await download(location, fetcher: fetcher)
        }
        return try readFile(location)
    }

    /// How a native catalog's products are read while the file is parsed.
    public enum ProductReading: Sendable {
        /// Straight from the bytes where a product is valid, through a tree where it is not (see
        /// `ProductsDecoder.directProduct`): the same catalog and problems, in a fraction of the time.
        case direct
        /// Every product through a tree: the reference the direct reading is compared with.
        case tree
    }

    /// Parses and validates bytes already in memory; `source` names them in messages.
    public static func decode(_ bytes: [UInt8], source: String, reading: ProductReading = .direct) throws(CatalogError)
        -> Catalog
    {
        try bytes.withUnsafeBufferPointer { buffer throws(CatalogError) in
            try decode(buffer, source: source, mapped: nil, reading: reading)
        }
    }

    /// `mapped`: the file `bytes` are mapped from, whose pages are given back as products stream.
    static func decode(
        _ bytes: UnsafeBufferPointer<UInt8>, source: String, mapped: MappedFile?,
        reading: ProductReading = .direct
    ) throws(CatalogError) -> Catalog {
        if let problem = encodingProblem(bytes) {
            throw CatalogError(source: source, problems: [problem])
        }
        // A native catalog's products are read while they are parsed (see NativeProductStream).
        let stream =
            source.lowercased().hasSuffix(".storekit") ? nil : NativeProductStream(mapped: mapped, reading: reading)
        let root = try parse(bytes, source: source, streamingTo: stream)
        switch CatalogFormat.detect(source: source, root: root) {
        case .native:
            var decoder = NativeCatalogDecoder()
            if let stream, stream.began {
                if let catalog = decoder.decode(root, streamed: stream) { return catalog }
                if decoder.streamedContextDiffers {
                    // The header went on after the products: decode the whole tree after all.
                    decoder = NativeCatalogDecoder()
                    if let catalog = decoder.decode(try parse(bytes, source: source, streamingTo: nil)) {
                        return catalog
                    }
                }
                throw CatalogError(source: source, problems: decoder.check.problems)
            }
            if let catalog = decoder.decode(root) { return catalog }
            throw CatalogError(source: source, problems: decoder.check.problems)
        case .storeKitConfiguration:
            var decoder = StoreKitConfigDecoder()
            if let catalog = decoder.decode(root) { return catalog }
            throw CatalogError(source: source, problems: decoder.check.problems)
        }
    }

    /// A file that is not UTF-8 text at all: UTF-16 or UTF-32 text (by its byte-order mark, or ASCII
    /// with NUL bytes between), or binary (a NUL byte in the first 8 KiB). Named as such, rather than
    /// as the JSON syntax error its first odd byte would be.
    static func encodingProblem(_ bytes: UnsafeBufferPointer<UInt8>) -> CatalogProblem? {
        let start = SourceLocation(line: 1, column: 1).description
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xFF, count: max(0, 4 - bytes.count))
        let ascii = { (byte: UInt8) in byte != 0 && byte < 0x80 }
        let encoding: String? =
            switch head {
            case [0xFF, 0xFE, 0, 0], [0, 0, 0xFE, 0xFF]: "UTF-32 text (it starts with a UTF-32 byte-order mark)"
            case _ where head.starts(with: [0xFF, 0xFE]) || head.starts(with: [0xFE, 0xFF]):
                "UTF-16 text (it starts with a UTF-16 byte-order mark)"
            case _ where ascii(head[0]) && head[1] == 0 && head[2] == 0 && head[3] == 0,
                _ where head[0] == 0 && head[1] == 0 && head[2] == 0 && ascii(head[3]):
                "UTF-32 text (three NUL bytes around each character)"
            case _ where ascii(head[0]) && head[1] == 0 && ascii(head[2]) && head[3] == 0,
                _ where head[0] == 0 && ascii(head[1]) && head[2] == 0 && ascii(head[3]):
                "UTF-16 text (a NUL byte next to each character)"
            default: nil
            }
        if let encoding {
            return CatalogProblem(path: start, message: "the file is \(encoding); save it as UTF-8")
        }
        guard let nul = bytes.prefix(8192).firstIndex(of: 0) else { return nil }
        return CatalogProblem(
            path: JSONParser.location(ofByte: nul, in: bytes).description,
            message: "NUL byte: the file is binary; expected a JSON catalog or a .storekit file")
    }

    /// The JSON tree of `bytes`, its syntax error as the catalog's only problem.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, source: String, streamingTo stream: NativeProductStream?)
        throws(CatalogError) -> JSONValue
    {
        do {
            if let stream { return try JSONParser.parse(bytes, streaming: "products", to: stream) }
            return try JSONParser.parse(bytes)
        } catch {
            throw CatalogError(
                source: source, problems: [CatalogProblem(path: error.location.description, message: error.message)])
        }
    }

    /// The file's bytes (see `FileBytes`), or why they cannot be a catalog.
    static func readFile(_ path: String) throws(CatalogError) -> [UInt8] {
        do {
            return try FileBytes.read(path, limit: maxBytes)
        } catch {
            switch error {
            case .notFound:
                throw CatalogError(
                    source: path,
                    message: "no such file; pass --catalog with the path of a products.json or .storekit file")
            case .notPermitted: throw CatalogError(source: path, message: "cannot be read (check its permissions)")
            case .directory:
                throw CatalogError(
                    source: path, message: "is a directory; pass the catalog file itself (e.g. \(path)/products.json)")
            case .tooLarge: throw tooLarge(path)
            case .failed(let reason): throw CatalogError(source: path, message: "cannot be read: \(reason)")
            }
        }
    }

    /// `location` mapped into memory when it is a large file (see `MappedFile`), nil when it is
    /// small or cannot be mapped; over `maxBytes`, refused as any other reading refuses it.
    static func mapIfLarge(
        _ location: String, threshold: Int = MappedFile.threshold,
        releaseStep: Int = 4 * 1024 * 1024
    ) throws(CatalogError) -> MappedFile? {
        do {
            return try MappedFile.openIfLarge(location, threshold: threshold, limit: maxBytes, releaseStep: releaseStep)
        } catch {
            throw tooLarge(location)
        }
    }

    /// A local file over `maxBytes`, however it was opened.
    static func tooLarge(_ path: String) -> CatalogError {
        CatalogError(source: path, message: "is larger than \(maxBytes / 1_048_576) MB; that is not a catalog")
    }
}

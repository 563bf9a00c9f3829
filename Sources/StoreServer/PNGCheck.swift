import CZlib
import Foundation
import ServerRecords

/// What Apple requires of an uploaded image: a PNG without transparency, full-size images 3840
/// pixels wide and 160 to 2160 high. Apple gives no dimensions for a bullet point's icon; this
/// server asks for a square of at most 1024 pixels. The image must decode, as it must for Apple
/// to show it: every chunk whole with its CRC, a header PNG allows, and image data that inflates
/// to exactly the rows the header promises, each with one of PNG's five filters.
enum PNGCheck {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// nil when `data` is an acceptable image of `size`, else why not.
    static func problem(_ data: Data, size: RetentionImageSize) -> String? {
        let bytes = [UInt8](data)
        guard bytes.count >= 8, Array(bytes[0..<8]) == signature else { return "not a PNG file (no PNG signature)" }
        let chunks: [Chunk]
        switch Chunk.all(bytes) {
        case .failure(let problem): return problem.text
        case .success(let all): chunks = all
        }
        guard let first = chunks.first, first.type == "IHDR", let header = Header(first.data) else {
            return "not a PNG file: it does not start with a valid IHDR chunk"
        }
        if let problem = header.problem { return problem }
        if header.hasAlpha || chunks.contains(where: { $0.type == "tRNS" }) {
            return "the PNG has transparency (an alpha channel or tRNS chunk); upload an opaque image"
        }
        switch size {
        case .fullSize where header.width != 3840 || !(160...2160).contains(header.height):
            return
                "a FULL_SIZE image is 3840 pixels wide and 160 to 2160 high; this one is \(header.width)×\(header.height)"
        case .bulletPoint where header.width != header.height || header.width > 1024:
            return "a BULLET_POINT image is square, at most 1024×1024; this one is \(header.width)×\(header.height)"
        default: break
        }
        if let problem = order(chunks, header: header) { return problem }
        let image = chunks.filter { $0.type == "IDAT" }.flatMap(\.data)
        return Scanlines(header).problem(inflating: image)
    }

    /// The chunks' order PNG requires: a palette before the image data when the image uses one,
    /// the image data in consecutive chunks, and IEND last.
    private static func order(_ chunks: [Chunk], header: Header) -> String? {
        let types = chunks.map(\.type)
        guard let firstData = types.firstIndex(of: "IDAT"), let lastData = types.lastIndex(of: "IDAT") else {
            return "the PNG has no image data (IDAT chunk)"
        }
        guard types[firstData...lastData].allSatisfy({ $0 == "IDAT" }) else {
            return "the PNG's image data (IDAT chunks) is not in consecutive chunks"
        }
        if header.colorType == 3, types.firstIndex(of: "PLTE").map({ $0 > firstData }) ?? true {
            return "the PNG uses a palette but has no PLTE chunk before its image data"
        }
        guard types.last == "IEND" else { return "the PNG does not end with an IEND chunk" }
        return nil
    }

    /// One chunk: its type and data, its CRC checked.
    struct Chunk {
        let type: String
        let data: ArraySlice<UInt8>

        struct Problem: Error {
            let text: String
        }

        static func all(_ bytes: [UInt8]) -> Result<[Chunk], Problem> {
            var chunks: [Chunk] = []
            var at = 8
            while chunks.last?.type != "IEND" {
                guard at + 12 <= bytes.count else {
                    return .failure(Problem(text: "the PNG is cut short at byte \(at)"))
                }
                let length = be32(bytes, at)
                let typeBytes = bytes[at + 4..<at + 8]
                guard length < 1 << 31, at + 12 + length <= bytes.count else {
                    return .failure(Problem(text: "the PNG's chunk at byte \(at) runs past the end of the file"))
                }
                guard typeBytes.allSatisfy({ (65...90).contains($0) || (97...122).contains($0) }) else {
                    return .failure(Problem(text: "the PNG's chunk at byte \(at) has no valid type"))
                }
                let type = String(decoding: typeBytes, as: UTF8.self)
                let crc = bytes.withUnsafeBufferPointer { buffer in
                    crc32(0, buffer.baseAddress! + at + 4, uInt(4 + length))
                }
                guard crc == UInt(be32(bytes, at + 8 + length)) else {
                    return .failure(
                        Problem(text: "the PNG's \(type) chunk at byte \(at) fails its CRC: the file is damaged"))
                }
                chunks.append(Chunk(type: type, data: bytes[at + 8..<at + 8 + length]))
                at += 12 + length
            }
            return .success(chunks)
        }
    }

    /// IHDR's fields.
    struct Header {
        let width: Int
        let height: Int
        let bitDepth: Int
        let colorType: Int
        let compression: UInt8
        let filter: UInt8
        let interlace: UInt8

        init?(_ data: ArraySlice<UInt8>) {
            guard data.count == 13 else { return nil }
            let bytes = Array(data)
            width = be32(bytes, 0)
            height = be32(bytes, 4)
            bitDepth = Int(bytes[8])
            colorType = Int(bytes[9])
            compression = bytes[10]
            filter = bytes[11]
            interlace = bytes[12]
        }

        /// The bit depths PNG allows for each colour type.
        static let depths: [Int: Set<Int>] = [
            0: [1, 2, 4, 8, 16], 2: [8, 16], 3: [1, 2, 4, 8], 4: [8, 16], 6: [8, 16],
        ]
        /// Samples a pixel, by colour type.
        static let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]

        var problem: String? {
            guard width > 0, height > 0, width < 1 << 31, height < 1 << 31 else {
                return "the PNG's header gives no valid size (\(width)×\(height))"
            }
            guard Self.depths[colorType]?.contains(bitDepth) == true else {
                return
                    "the PNG's header gives colour type \(colorType) with bit depth \(bitDepth), which PNG does not define"
            }
            guard compression == 0, filter == 0, interlace <= 1 else {
                return "the PNG's header names a compression, filter or interlace method PNG does not define"
            }
            return nil
        }

        var hasAlpha: Bool { colorType == 4 || colorType == 6 }
        var bitsPerPixel: Int { (Self.channels[colorType] ?? 1) * bitDepth }
    }

    private static func be32(_ bytes: [UInt8], _ at: Int) -> Int {
        bytes[at..<at + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}

import CZlib

extension PNGCheck {
    /// The rows a PNG's header promises (in Adam7's seven passes when interlaced), each a filter
    /// byte and its pixels, checked as the image data inflates: no more and no fewer bytes than
    /// the rows hold, so an image cut short, padded or made for another size is refused.
    struct Scanlines {
        /// Each pass's rows and their length in bytes, the filter byte included.
        let passes: [(rows: Int, length: Int)]

        /// Adam7's passes: where each starts and how far apart its pixels are.
        static let adam7 = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
        ]

        init(_ header: Header) {
            let bits = header.bitsPerPixel
            let layout = header.interlace == 1 ? Self.adam7 : [(0, 0, 1, 1)]
            passes = layout.compactMap { x, y, dx, dy in
                let columns = (header.width - x + dx - 1) / dx
                let rows = (header.height - y + dy - 1) / dy
                guard columns > 0, rows > 0 else { return nil }
                return (rows, 1 + (columns * bits + 7) / 8)
            }
        }

        /// nil when `data` inflates to exactly the promised rows, else why not.
        func problem(inflating data: [UInt8]) -> String? {
            var stream = z_stream()
            guard czlib_inflate_init(&stream) == Z_OK else { return "the PNG's image data could not be read" }
            defer { inflateEnd(&stream) }
            var cursor = Cursor(passes: passes)
            var output = [UInt8](repeating: 0, count: 1 << 16)
            var input = data
            return input.withUnsafeMutableBufferPointer { source -> String? in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                while true {
                    let status = output.withUnsafeMutableBufferPointer { target in
                        stream.next_out = target.baseAddress
                        stream.avail_out = uInt(target.count)
                        return inflate(&stream, Z_NO_FLUSH)
                    }
                    let produced = output.count - Int(stream.avail_out)
                    if let problem = cursor.take(output[..<produced]) { return problem }
                    switch status {
                    case Z_STREAM_END:
                        return cursor.done
                            ? nil : "the PNG's image data ends before its last row: the file is cut short"
                    case Z_OK, Z_BUF_ERROR:
                        // No input left and room for output: nothing more can come.
                        if stream.avail_in == 0, stream.avail_out > 0 {
                            return "the PNG's image data is cut short (its zlib stream does not end)"
                        }
                    default:
                        return "the PNG's image data is not a valid zlib stream: the file is damaged"
                    }
                }
            }
        }
    }

    /// Where in the rows the inflated bytes have reached.
    struct Cursor {
        let passes: [(rows: Int, length: Int)]
        private var pass = 0
        private var row = 0
        private var position = 0
        private var rowsDone = 0

        init(passes: [(rows: Int, length: Int)]) {
            self.passes = passes
        }

        var done: Bool { pass == passes.count }

        /// Takes the next inflated bytes: each row's first must name one of PNG's five filters.
        mutating func take(_ bytes: ArraySlice<UInt8>) -> String? {
            var index = bytes.startIndex
            while index < bytes.endIndex {
                guard pass < passes.count else {
                    return "the PNG's image data holds more than the \(rowsDone) rows its header promises"
                }
                if position == 0, bytes[index] > 4 {
                    return
                        "the PNG's row \(rowsDone + 1) has filter type \(bytes[index]), which PNG does not define: the file is damaged"
                }
                let step = min(passes[pass].length - position, bytes.endIndex - index)
                index += step
                position += step
                guard position == passes[pass].length else { continue }
                (position, row, rowsDone) = (0, row + 1, rowsDone + 1)
                if row == passes[pass].rows { (pass, row) = (pass + 1, 0) }
            }
            return nil
        }
    }
}

import Foundation
import Testing

@testable import TerminalRecording

@Suite struct AsciicastTests {
    @Test func aCharacterCutByAReadWaitsForItsOtherBytes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cast-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("a.cast")
        let start = ContinuousClock.now
        let writer = try AsciicastWriter(
            url: file,
            header: .init(
                width: 80, height: 24, timestamp: 1_795_587_165, title: "T \"q\"",
                environment: ["TERM": "xterm-256color", "SHELL": "/bin/sh"]), start: start)
        let yen = Array("¥160 中".utf8)  // ¥ is 2 bytes, 中 is 3
        try writer.record(.output, bytes: yen[..<1], at: start + .milliseconds(1))
        try writer.record(.output, bytes: yen[1..<8], at: start + .milliseconds(2))
        try writer.record(.output, bytes: yen[8...], at: start + .microseconds(1_500_001))
        try writer.record(.input, bytes: [0x1B, 0x5B, 0x41], at: start + .seconds(2))
        try writer.record(.marker, "purchased 2000000000000001", at: start + .seconds(3))
        try writer.close()
        let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
        #expect(
            lines == [
                #"{"version":2,"width":80,"height":24,"timestamp":1795587165,"title":"T \"q\"","env":{"SHELL":"/bin/sh","TERM":"xterm-256color"}}"#,
                #"[0.002000,"o","¥160 "]"#,
                #"[1.500001,"o","中"]"#,
                #"[2.000000,"i","\u001b[A"]"#,
                #"[3.000000,"m","purchased 2000000000000001"]"#,
            ])
    }

    @Test func completeLengthKeepsBackOnlyACutSequence() {
        #expect(AsciicastWriter.completeLength(Array("ab".utf8)) == 2)
        #expect(AsciicastWriter.completeLength([0x61, 0xE4, 0xB8]) == 1)
        #expect(AsciicastWriter.completeLength([0xE4, 0xB8, 0xAD]) == 3)
        // Malformed bytes go out (as U+FFFD) rather than waiting forever.
        #expect(AsciicastWriter.completeLength([0x80, 0x80, 0x80, 0x80]) == 4)
    }

    @Test func sideChannelLinesSplitWhereTheyEnd() {
        var buffer = Array("m purchased 1\nm fin".utf8)
        #expect(SideChannel.messages(from: &buffer) == [.marker("purchased 1")])
        buffer += Array("ished 1\n".utf8)
        #expect(SideChannel.messages(from: &buffer) == [.marker("finished 1")])
        #expect(buffer.isEmpty)
        #expect(SideChannel.line(.marker("a\nb")) == "m a b\n")
    }
}

import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconIO

extension Contracts {
  /// ``ByteSource/read(into:)`` is given at least 8 bytes: the line reader keeps that room even when one
  /// line fills its buffer, so a UTF-16 file (decoded 4 bytes at a time) is never cut short.
  @Suite struct ByteSourceContractTests {
    @Test(arguments: [false, true]) func utf16LinesLongerThanTheBufferArriveWhole(bigEndian: Bool) throws {
      let dir = try TempDir()
      for length in [50, 57, 58, 60, 63, 64, 65, 120, 127, 128, 129, 300] {
        let long = String((0..<length).map { Character(UnicodeScalar(UInt8(0x61 + $0 % 26))) })
        let lines = ["h", long, "ä€🍎" + long, "last"]
        var bytes: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in (lines.joined(separator: "\n") + "\n").utf16 {
          bytes +=
            bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
        }
        let path = try dir.write("u16-\(length).csv", bytes: bytes)
        let reader = LineReader(source: try InputBytes.open(path: path), displayName: path, chunkSize: 64)
        var got: [String] = []
        try reader.forEachLine { line, _ in got.append(String(decoding: line, as: UTF8.self)) }
        #expect(got == lines, "a \(length)-character line, big-endian \(bigEndian)")
      }
    }
  }
}

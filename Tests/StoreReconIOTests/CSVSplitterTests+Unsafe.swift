// Safety: the splitter reads the test's own byte array through a buffer borrowed for the call, and the
// fields are copied into `String`s before the call returns.

import Testing

@testable import StoreReconCore
@testable import StoreReconIO

/// The splitter's in-place paths (no quote; quotes without `""`) must give exactly the fields and
/// results of the plain RFC 4180 reading, byte for byte.
@Suite struct CSVSplitterTests {
  /// The reading the splitter implements, one byte at a time.
  static func reference(_ text: [UInt8]) -> String {
    var fields: [[UInt8]] = []
    var i = 0
    var field = 1
    let n = text.count
    while true {
      var value: [UInt8] = []
      if i < n && text[i] == 0x22 {
        i += 1
        while true {
          guard i < n else { return "unterminated" }
          if text[i] == 0x22 {
            if i + 1 < n && text[i + 1] == 0x22 {
              value.append(0x22)
              i += 2
              continue
            }
            i += 1
            break
          }
          value.append(text[i])
          i += 1
        }
        if i < n && text[i] != 0x2C { return "malformed field \(field)" }
      } else {
        while i < n && text[i] != 0x2C {
          value.append(text[i])
          i += 1
        }
      }
      fields.append(value)
      guard i < n else { break }
      i += 1
      field += 1
    }
    return fields.map { String(decoding: $0, as: UTF8.self) }.joined(separator: "|")
  }

  static func split(_ splitter: CSVSplitter, _ text: [UInt8]) -> String {
    text.withUnsafeBufferPointer { bytes in
      switch splitter.split(bytes) {
      case .unterminated: return "unterminated"
      case .malformed(let reason):
        return reason.hasPrefix("field ")
          ? "malformed " + reason.split(separator: " ").prefix(2).joined(separator: " ") : reason
      case .complete:
        let store = splitter.storage(for: bytes)
        let bounds = splitter.fieldBounds
        return stride(from: 0, to: bounds.count, by: 2).map {
          String(decoding: store[bounds[$0]..<bounds[$0 + 1]], as: UTF8.self)
        }.joined(separator: "|")
      }
    }
  }

  @Test func splitsAsTheByteByByteReading() {
    let splitter = CSVSplitter()
    let alphabet: [UInt8] = Array("ab,,\"\"x-é 12,".utf8)
    let seed: UInt64 = 0xC5F_0001
    var generator = SeededGenerator(seed: seed, stream: "csv splitter")
    for length in 0..<48 {
      for _ in 0..<200 {
        var text = (0..<length).map { _ in alphabet[generator.below(alphabet.count)] }
        if length % 3 == 0 { text.removeAll { $0 == 0x22 } }  // the no-quote path
        #expect(
          Self.split(splitter, text) == Self.reference(text),
          "seed \(seed): \(String(decoding: text, as: UTF8.self))")
      }
    }
    let cases = [
      "", ",", "a,b,c", "\"a,b\",c", "\"a\"\"b\",c", "\"a\"b,c", "x,\"unclosed", "\"\"", "a,\"\"",
      "-,-,-,-,-,-,-,-,-",
      "2026-10-01T00:00:00Z,u1,,2026-10-02T00:00:00Z",
    ]
    for text in cases {
      #expect(Self.split(splitter, Array(text.utf8)) == Self.reference(Array(text.utf8)), "\(text)")
    }
  }
}

// Safety: the line buffers handed to `accept` and `parse` are read only during the call and copied into
// `String`s before it returns.

import Foundation
import Testing
import StoreReconCore
import StoreReconTestSupport

@testable import StoreReconIO

/// `byteLineBatches` parses lines on every core and applies them in order: whatever the batch size, its
/// counts, rejects (line, reason, text) and the values applied must be those of the one-thread
/// `byteLines` loop.
@Suite struct JSONLineBatchesTests {
  /// What a test line says: its text, or a rejection for a line holding `bad`.
  static func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(RowRejection) -> String {
    let text = String(decoding: bytes, as: UTF8.self)
    if text.contains("bad") { throw RowRejection("the line says bad") }
    return text
  }

  /// One-thread reference: the values in order with their line numbers, counts and rejects.
  static func reference(_ path: String) throws -> ([String], InputCounts, [Reject]) {
    let rejects = RejectList()
    var seen: [String] = []
    let counts = try JSONLinesImport.byteLines(
      path: path, displayName: "f.jsonl", fileIndex: 3, rejects: rejects
    ) {
      (bytes, origin) throws(RowRejection) in
      seen.append("\(origin.file):\(origin.line):\(try parse(bytes))")
    }
    return (seen, counts, rejects.rejects)
  }

  static func batched(_ path: String, batchBytes: Int) throws -> ([String], InputCounts, [Reject], Int) {
    let rejects = RejectList()
    var seen: [String] = []
    let states = Counter()
    let counts = try JSONLinesImport.byteLineBatches(
      path: path, displayName: "f.jsonl", fileIndex: 3, rejects: rejects, batchBytes: batchBytes,
      makeState: { states.add() },
      parse: { (_, bytes, origin) throws(RowRejection) -> String in
        "\(origin.file):\(origin.line):\(try parse(bytes))"
      },
      apply: { value, origin in
        #expect(value.hasPrefix("\(origin.file):\(origin.line):"))
        seen.append(value)
      })
    return (seen, counts, rejects.rejects, states.value)
  }

  final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0
    func add() -> Int {
      lock.lock()
      defer { lock.unlock() }
      count += 1
      return count
    }
    var value: Int {
      lock.lock()
      defer { lock.unlock() }
      return count
    }
  }

  @Test(arguments: [1, 700, 64 * 1024, 8 << 20])
  func batchesGiveTheOneThreadLoopsResults(batchBytes: Int) throws {
    let dir = try TempDir()
    var bytes: [UInt8] = []
    for i in 0..<5_000 {
      switch i % 97 {
      case 5: bytes += Array("\n".utf8)  // a blank line: skipped, not counted
      case 11: bytes += Array("   {\"n\": \(i), \"bad\": true}  \r\n".utf8)
      case 23: bytes += [0x7B, 0x22, 0xC3, 0x28, 0x22, 0x7D, 0x0A]  // invalid UTF-8
      case 31: bytes += Array(" \t \n".utf8)  // only whitespace
      default: bytes += Array("{\"n\": \(i), \"text\": \"line \(i) ü\"}\n".utf8)
      }
    }
    bytes += Array("{\"last\": \"no line feed\"}".utf8)
    let path = try dir.write("f.jsonl", bytes: bytes)
    let (expected, expectedCounts, expectedRejects) = try Self.reference(path)
    let (seen, counts, rejects, states) = try Self.batched(path, batchBytes: batchBytes)
    #expect(expectedCounts.rejected > 100 && expectedCounts.accepted > 4_000)
    #expect(counts == expectedCounts)
    #expect(rejects == expectedRejects)
    #expect(seen == expected)
    #expect(states >= 1)
  }

  @Test func aReadThatFailsPartWayAppliesTheLinesBeforeTheFailure() throws {
    let dir = try TempDir()
    var bytes = Array(String(repeating: "{\"ok\": 1}\n", count: 300).utf8)
    bytes += [UInt8](repeating: 0x61, count: LineReader.maximumLineLength + 10)
    bytes += Array("\n{\"after\": 1}\n".utf8)
    let path = try dir.write("long.jsonl", bytes: bytes)
    var seen = 0
    var failure: InputError?
    do {
      _ = try JSONLinesImport.byteLineBatches(
        path: path, displayName: "long.jsonl", fileIndex: 0, rejects: RejectList(),
        makeState: { 0 }, parse: { (_, bytes, _) throws(RowRejection) -> Int in bytes.count },
        apply: { _, _ in seen += 1 })
    } catch {
      failure = error
    }
    #expect(failure != nil)
    #expect(seen == 300)
  }
}

import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconIO

/// Every report entry of a zip is read; a damaged gzip or zip is found whole, before any row is read.
@Suite struct ContainerCheckTests {
  @Test func everyCSVEntryOfAZipIsReadAndTheOthersAreNamed() throws {
    let dir = try TempDir()
    let path = try dir.writeZip(
      "r.zip", entries: [("a.csv", "h1,h2\n1,2\n"), ("README.txt", "hello"), ("b.csv", "h1,h2\r\n3,4")])
    #expect(try readLines(path).map(\.1) == ["h1,h2", "1,2", "3,4"])
    #expect(
      try InputBytes.verify(path: path, displayName: "r.zip") == [
        "zip entry 'README.txt' is not a report (.csv): not read"
      ])
  }

  @Test func aLaterEntryEndingWithoutANewlineDoesNotGlueRows() throws {
    let dir = try TempDir()
    let path = try dir.writeZip(
      "r.zip", entries: [("a.csv", "h\n1"), ("b.csv", "\u{FEFF}h\n2\n"), ("c.csv", "h\n3")],
      method: "ZIP_STORED")
    #expect(try readLines(path).map(\.1) == ["h", "1", "2", "3"])
  }

  @Test func zipEntriesWithAnotherHeaderAreMalformed() throws {
    let dir = try TempDir()
    let path = try dir.writeZip("r.zip", entries: [("a.csv", "h1,h2\n1,2\n"), ("b.csv", "x,y\n3,4\n")])
    #expect {
      _ = try readLines(path)
    } throws: { error in
      guard case .malformed(_, let reason) = error as? InputError else { return false }
      return reason.contains("zip entry 'b.csv' has another header than 'a.csv'")
    }
  }

  @Test func aPlainFileIsNotRead() throws {
    let dir = try TempDir()
    let path = try dir.write("a.csv", "h\n1\n")
    #expect(try InputBytes.verify(path: path, displayName: "a.csv").isEmpty)
  }

  static func gzip(lines: Int) throws -> [UInt8] {
    let text = (0..<lines).map { "line \($0) with some text to compress\n" }.joined()
    return try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array(text.utf8))
  }

  /// The gzip damage `verify` reports, or `nil` when it passes.
  static func gzipDamage(_ bytes: [UInt8]) throws -> String? {
    let dir = try TempDir()
    let path = try dir.write("t.gz", bytes: bytes)
    do {
      _ = try InputBytes.verify(path: path, displayName: "t.gz")
      return nil
    } catch {
      guard case .malformed(let file, let reason) = error else { return "unexpected \(error)" }
      #expect(file == "t.gz")
      return reason
    }
  }

  @Test func gzipDamageIsFoundWithItsOffset() throws {
    let full = try Self.gzip(lines: 20_000)
    #expect(try Self.gzipDamage(full) == nil)
    #expect(try Self.gzipDamage(full + full) == nil, "concatenated members")
    #expect(try Self.gzipDamage(full + [0, 0, 0]) == nil, "zero padding")

    let cut = try #require(try Self.gzipDamage(Array(full[0..<(full.count / 2)])))
    #expect(cut.hasPrefix("gzip data ends early"), "\(cut)")
    #expect(cut.contains(", at byte \(full.count / 2) of the file (after "), "\(cut)")

    let trailing = try #require(try Self.gzipDamage(full + Array("junk".utf8)))
    #expect(trailing.hasPrefix("unexpected data after the end of the gzip stream"), "\(trailing)")
    #expect(trailing.contains(", at byte \(full.count) of the file"), "\(trailing)")

    // A flipped byte in the CRC-32 of the trailer: the text inflates whole, the check fails at the end.
    var flipped = full
    flipped[full.count - 6] ^= 0xFF
    let crc = try #require(try Self.gzipDamage(flipped))
    #expect(crc.contains("incorrect data check"), "\(crc)")
  }

  @Test func aZipEntryFailingItsCRCIsFoundBeforeAnyRowIsRead() throws {
    let dir = try TempDir()
    let path = try dir.writeZip(
      "r.zip", entries: [("a.csv", "h\n1\n"), ("b.csv", "h\n" + String(repeating: "2\n", count: 50))],
      method: "ZIP_STORED")
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    // The last stored "2" of b.csv (the central directory follows the data): its CRC no longer matches.
    let at = try #require(bytes.lastIndex(of: 0x32))
    bytes[at] = 0x33
    let broken = try dir.write("broken.zip", bytes: bytes)
    #expect {
      _ = try InputBytes.verify(path: broken, displayName: "broken.zip")
    } throws: { error in
      guard case .malformed(_, let reason) = error as? InputError else { return false }
      return reason.contains("zip entry 'b.csv' fails its CRC-32 check") && reason.contains("(entry at byte ")
    }
  }
}

import Foundation
import Testing
import StoreReconTestSupport

@testable import StoreReconIO

@Suite struct ByteSourceTests {
  @Test func plainFileLinesAcrossChunkBoundaries() throws {
    let dir = try TempDir()
    let path = try dir.write(
      "a.txt", "first line\r\nsecond\n\nthird, a longer line than the chunk size\nlast")
    let lines = try readLines(path, chunkSize: 8)
    #expect(
      lines.map(\.1) == ["first line", "second", "", "third, a longer line than the chunk size", "last"])
    #expect(lines.map(\.0) == [1, 2, 3, 4, 5])
  }

  @Test func finalNewlineMakesNoExtraLine() throws {
    let dir = try TempDir()
    #expect(try readLines(try dir.write("a.txt", "a\nb\n")).map(\.1) == ["a", "b"])
    #expect(try readLines(try dir.write("b.txt", "a\r\nb\r\n")).map(\.1) == ["a", "b"])
    #expect(try readLines(try dir.write("c.txt", "")).isEmpty)
  }

  @Test func missingFileIsNotFound() {
    #expect(throws: InputError.notFound(path: "nope.csv")) {
      _ = try InputBytes.open(path: "/nonexistent/dir/nope.csv", displayName: "nope.csv")
    }
  }

  @Test func directoryIsUnreadable() throws {
    let dir = try TempDir()
    do {
      _ = try InputBytes.open(path: dir.url.path, displayName: "dir")
      Issue.record("expected an error")
    } catch {
      guard case .unreadable(let path, _) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(path == "dir")
      #expect(error.description.hasPrefix("dir: cannot read the file"))
    }
  }

  @Test func gzipIsInflated() throws {
    let dir = try TempDir()
    let path = try dir.writeGzip("a.csv.gz", "x,y\n1,2\n")
    #expect(try readLines(path, chunkSize: 64).map(\.1) == ["x,y", "1,2"])
  }

  @Test func concatenatedGzipMembersAreRead() throws {
    let dir = try TempDir()
    let one = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array("a\nb\n".utf8))
    let two = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array("c\n".utf8))
    let path = try dir.write("cat.gz", bytes: one + two + [0, 0, 0, 0])
    #expect(try readLines(path).map(\.1) == ["a", "b", "c"])
  }

  @Test func largeGzipStreamsInChunks() throws {
    let dir = try TempDir()
    var text = ""
    for i in 0..<60_000 { text += "row \(i),\(i * 7)\n" }
    let path = try dir.writeGzip("big.gz", text)
    let reader = LineReader(source: try InputBytes.open(path: path), displayName: "big.gz", chunkSize: 1000)
    var count = 0
    var last = ""
    try reader.forEachLine { line, _ in
      count += 1
      last = String(decoding: line, as: UTF8.self)
    }
    #expect(count == 60_000)
    #expect(last == "row 59999,419993")
  }

  @Test func truncatedGzipIsMalformed() throws {
    let dir = try TempDir()
    var text = ""
    for i in 0..<2000 { text += "line \(i)\n" }
    let full = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array(text.utf8))
    let path = try dir.write("cut.gz", bytes: Array(full[0..<(full.count / 2)]))
    #expect {
      _ = try readLines(path)
    } throws: { error in
      guard case .malformed(_, let reason) = error as? InputError else { return false }
      return reason.contains("ends early")
    }
  }

  @Test func garbageAfterGzipIsMalformed() throws {
    let dir = try TempDir()
    let gz = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: Array("a\n".utf8))
    let path = try dir.write("junk.gz", bytes: gz + Array("junk".utf8))
    #expect(
      throws: InputError.malformed(path: path, reason: "unexpected data after the end of the gzip stream")
    ) {
      _ = try readLines(path)
    }
  }

  @Test func gzNameWithoutGzipDataIsMalformed() throws {
    let dir = try TempDir()
    let path = try dir.write("plain.gz", "a,b\n")
    #expect(throws: InputError.self) { _ = try InputBytes.open(path: path, displayName: "plain.gz") }
  }

  @Test(arguments: [
    ("ZIP_DEFLATED", false), ("ZIP_STORED", false), ("ZIP_DEFLATED", true), ("ZIP_STORED", true),
  ])
  func zipEntryIsRead(method: String, streamed: Bool) throws {
    let dir = try TempDir()
    let path = try dir.writeZip(
      "salesreport_202401.zip", entries: [("salesreport_202401.csv", "h1,h2\nä,2\n")], method: method,
      streamed: streamed)
    #expect(try readLines(path).map(\.1) == ["h1,h2", "ä,2"])
  }

  @Test func zipPicksTheCSVEntry() throws {
    let dir = try TempDir()
    let path = try dir.writeZip("r.zip", entries: [("README.txt", "not me"), ("data/report.CSV", "a\nb\n")])
    #expect(try readLines(path).map(\.1) == ["a", "b"])
  }

  @Test func zipWithoutCSVIsMalformed() throws {
    let dir = try TempDir()
    let path = try dir.writeZip("r.zip", entries: [("a.txt", "1"), ("b.txt", "2")])
    #expect(
      throws: InputError.malformed(
        path: "r.zip", reason: "the zip archive holds no .csv file (2 other files)")
    ) {
      _ = try InputBytes.open(path: path, displayName: "r.zip")
    }
  }

  @Test func zipWithUnsupportedMethodIsMalformed() throws {
    let dir = try TempDir()
    let path = try dir.writeZip("r.zip", entries: [("a.csv", "x\n")], method: "ZIP_BZIP2")
    do {
      _ = try InputBytes.open(path: path, displayName: "r.zip")
      Issue.record("expected an error")
    } catch {
      guard case .malformed(let file, let reason) = error else {
        Issue.record("unexpected \(error)")
        return
      }
      #expect(file == "r.zip")
      #expect(reason.contains("compression method 12"))
    }
  }

  @Test func corruptZipDataIsMalformed() throws {
    let dir = try TempDir()
    let path = try dir.writeZip("r.zip", entries: [("a.csv", String(repeating: "abcdefgh,", count: 500))])
    var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: path)))
    for i in 45..<70 { bytes[i] ^= 0x5A }  // inside the compressed data of the only entry
    let broken = try dir.write("broken.zip", bytes: bytes)
    #expect(throws: InputError.self) { _ = try readLines(broken) }
  }

  @Test func utf16LittleEndianWithBOMBecomesUTF8() throws {
    let dir = try TempDir()
    let text = "Order,Price\nÄpfel 🍎,4.99\r\n"
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in text.utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let path = try dir.write("u16le.csv", bytes: bytes)
    #expect(try readLines(path, chunkSize: 16).map(\.1) == ["Order,Price", "Äpfel 🍎,4.99"])
  }

  @Test func utf16BigEndianWithBOMBecomesUTF8() throws {
    let dir = try TempDir()
    let text = "a,€\n"
    var bytes: [UInt8] = [0xFE, 0xFF]
    for unit in text.utf16 { bytes += [UInt8(unit >> 8), UInt8(unit & 0xFF)] }
    #expect(try readLines(try dir.write("u16be.csv", bytes: bytes)).map(\.1) == ["a,€"])
  }

  @Test func utf16InsideGzip() throws {
    let dir = try TempDir()
    var bytes: [UInt8] = [0xFF, 0xFE]
    for unit in "x\ny\n".utf16 { bytes += [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
    let gz = try Tool.run("/usr/bin/env", ["gzip", "-c"], input: bytes)
    #expect(try readLines(try dir.write("u.gz", bytes: gz)).map(\.1) == ["x", "y"])
  }

  @Test func oddUTF16IsMalformed() throws {
    let dir = try TempDir()
    let path = try dir.write("odd.csv", bytes: [0xFF, 0xFE, 0x41, 0x00, 0x42])
    #expect(throws: InputError.self) { _ = try readLines(path) }
  }

  @Test func utf8BOMIsStripped() throws {
    let dir = try TempDir()
    let path = try dir.write("bom.csv", bytes: [0xEF, 0xBB, 0xBF] + Array("id\n1\n".utf8))
    #expect(try readLines(path).map(\.1) == ["id", "1"])
  }

  @Test func rawTextIsCutOnACharacterBoundary() {
    let text = String(repeating: "a", count: 499) + "é" + "tail"
    let cut = RawText.truncated(text)
    #expect(cut == String(repeating: "a", count: 499) + "…")
    #expect(RawText.truncated("short") == "short")
  }

  @Test func inputErrorsNameTheFile() {
    #expect(InputError.notFound(path: "x.csv").description == "x.csv: file not found")
    #expect(
      InputError.missingColumns(file: "s.csv", ["SKU ID", "Charged Amount"]).description
        == "s.csv: header lacks required columns 'SKU ID', 'Charged Amount'")
    #expect(
      InputError.malformed(path: "r.zip", reason: "bad").description == "r.zip: malformed file: bad")
  }
}

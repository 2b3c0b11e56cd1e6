// Safety: writes only into the caller's buffer, within the `n` bytes the entry gave (`n <= buffer.count`);
// the move of the rest after a skipped header stays inside those bytes.

/// The report entries of a zip archive (``ZipDirectory/reportEntries(in:displayName:)``) read as one
/// text, one after another in directory order: each later entry's header line must be the first
/// entry's (else the archive is malformed) and is left out, so the rows follow on as one table; a line
/// break goes between entries where one ends without it. Lines are numbered on through the entries.
/// Each entry's CRC-32 and size are checked at its end.
package final class ZipArchiveByteSource: ByteSource {
  /// The first entry read (Google names the earnings month only there).
  package let entryName: String
  /// The file entries left unread: not reports (`.csv`).
  package let skipped: [String]
  private let file: FileByteSource
  private let displayName: String
  private let entries: [ZipDirectory.Entry]
  private var index = 0
  private var current: ZipEntryByteSource?
  /// The first entry's header line, as read; a later entry's, while it is skipped.
  private var firstHeader: [UInt8] = []
  private var collectingFirst = true
  private var header: [UInt8] = []
  private var skipping = false
  private var lastByte: UInt8 = 0x0A
  private var pendingNewline = false

  /// Opens the report entries of the zip archive in `file`; errors name `displayName`.
  package init(file: FileByteSource, displayName: String) throws(InputError) {
    self.file = file
    self.displayName = displayName
    let (read, skipped) = try ZipDirectory.reportEntries(in: file, displayName: displayName)
    entries = read
    self.skipped = skipped
    entryName = read.first?.name ?? ""
    if let first = read.first {
      current = try ZipEntryByteSource(file: file, displayName: displayName, entry: first)
    }
  }

  /// The names of the entries read, in order.
  package var entryNames: [String] { entries.map(\.name) }

  /// Reads the next bytes; `0` after the last entry.
  package func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
    guard buffer.count > 0 else { return 0 }
    while let source = current {
      if pendingNewline {
        buffer[0] = 0x0A
        pendingNewline = false
        lastByte = 0x0A
        return 1
      }
      let n = try source.read(into: buffer)
      guard n > 0 else {
        try nextEntry()
        continue
      }
      if collectingFirst { collectFirstHeader(UnsafeBufferPointer(rebasing: buffer[0..<n])) }
      guard skipping else {
        lastByte = buffer[n - 1]
        return n
      }
      guard let newline = buffer[0..<n].firstIndex(of: 0x0A) else {
        header.append(contentsOf: buffer[0..<n])
        continue
      }
      header.append(contentsOf: buffer[0..<newline])
      try checkHeader()
      let rest = n - newline - 1
      guard rest > 0, let base = buffer.baseAddress else { continue }
      base.update(from: base + newline + 1, count: rest)
      lastByte = buffer[rest - 1]
      return rest
    }
    return 0
  }

  /// After an entry ended (its CRC checked): opens the next, whose header is then skipped.
  private func nextEntry() throws(InputError) {
    if skipping { try checkHeader() }
    collectingFirst = false
    index += 1
    guard index < entries.count else {
      current = nil
      return
    }
    current = try ZipEntryByteSource(file: file, displayName: displayName, entry: entries[index])
    skipping = true
    header = []
    if lastByte != 0x0A { pendingNewline = true }
  }

  private func collectFirstHeader(_ bytes: UnsafeBufferPointer<UInt8>) {
    if let newline = bytes.firstIndex(of: 0x0A) {
      firstHeader.append(contentsOf: bytes[0..<newline])
      collectingFirst = false
    } else {
      firstHeader.append(contentsOf: bytes)
    }
  }

  /// The skipped header of entry `index` is the first entry's (byte-order mark and `\r` aside).
  private func checkHeader() throws(InputError) {
    skipping = false
    guard ZipArchiveByteSource.plain(header) == ZipArchiveByteSource.plain(firstHeader) else {
      throw .malformed(
        path: displayName,
        reason: "zip entry '\(entries[index].name)' has another header than '\(entryName)': "
          + "one archive holds one table")
    }
  }

  /// A header line without a UTF-8 byte-order mark and a trailing `\r`.
  static func plain(_ line: [UInt8]) -> ArraySlice<UInt8> {
    var slice = line[...]
    if slice.starts(with: [0xEF, 0xBB, 0xBF]) { slice = slice.dropFirst(3) }
    if slice.last == 0x0D { slice = slice.dropLast() }
    return slice
  }
}

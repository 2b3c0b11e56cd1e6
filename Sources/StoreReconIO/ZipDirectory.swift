/// Reads a zip archive's central directory (with zip64 records) to find the entry to read.
enum ZipDirectory {
  /// One central-directory entry.
  struct Entry {
    var name: String
    var flags: UInt16
    var method: UInt16
    var crc: UInt32
    var compressedSize: UInt64
    var uncompressedSize: UInt64
    var localHeaderOffset: UInt64
  }

  /// The entries a run reads: every `.csv` entry in directory order, or the only file entry when there
  /// is no `.csv` entry; and the names of the other file entries (not reports: left unread, and said).
  static func reportEntries(in file: FileByteSource, displayName: String) throws(InputError) -> (
    read: [Entry], skipped: [String]
  ) {
    let entries = try read(file, displayName: displayName)
    let files = entries.filter { !$0.name.hasSuffix("/") }
    let csv = files.filter { $0.name.lowercased().hasSuffix(".csv") }
    if !csv.isEmpty {
      return (csv, files.filter { !$0.name.lowercased().hasSuffix(".csv") }.map(\.name))
    }
    if files.count == 1, let only = files.first { return ([only], []) }
    let reason =
      files.isEmpty
      ? "the zip archive is empty" : "the zip archive holds no .csv file (\(files.count) other files)"
    throw .malformed(path: displayName, reason: reason)
  }

  /// Every entry of the central directory.
  package static func read(_ file: FileByteSource, displayName: String) throws(InputError) -> [Entry] {
    func bad(_ reason: String) -> InputError { .malformed(path: displayName, reason: reason) }
    let tailSize = Int(min(file.size, 22 + 65_535 + 20))
    guard tailSize >= 22 else { throw bad("too short to be a zip archive") }
    let tail = try bytes(file, at: file.size - Int64(tailSize), count: tailSize, displayName: displayName)
    var eocd = -1
    var index = tailSize - 22
    while index >= 0 {
      if tail[index] == 0x50 && u32(tail, index) == 0x0605_4B50 {
        eocd = index
        break
      }
      index -= 1
    }
    guard eocd >= 0 else { throw bad("zip end-of-central-directory record not found") }
    var count = UInt64(u16(tail, eocd + 10))
    var size = UInt64(u32(tail, eocd + 12))
    var offset = UInt64(u32(tail, eocd + 16))
    if count == 0xFFFF || size == 0xFFFF_FFFF || offset == 0xFFFF_FFFF {
      guard eocd >= 20, u32(tail, eocd - 20) == 0x0706_4B50 else { throw bad("zip64 locator not found") }
      let recordOffset = u64(tail, eocd - 20 + 8)
      let record = try bytes(file, at: Int64(clamping: recordOffset), count: 56, displayName: displayName)
      guard u32(record, 0) == 0x0606_4B50 else {
        throw bad("zip64 end-of-central-directory record not found")
      }
      count = u64(record, 32)
      size = u64(record, 40)
      offset = u64(record, 48)
    }
    guard size <= 64 * 1024 * 1024, offset <= UInt64(file.size), size <= UInt64(file.size) - offset else {
      throw bad("zip central directory is out of bounds")
    }
    let directory = try bytes(file, at: Int64(offset), count: Int(size), displayName: displayName)
    var entries: [Entry] = []
    var at = 0
    for _ in 0..<count {
      guard at + 46 <= directory.count, u32(directory, at) == 0x0201_4B50 else {
        throw bad("zip central directory entry \(entries.count + 1) is damaged")
      }
      let nameLength = Int(u16(directory, at + 28))
      let extraLength = Int(u16(directory, at + 30))
      let commentLength = Int(u16(directory, at + 32))
      let next = at + 46 + nameLength + extraLength + commentLength
      guard next <= directory.count else {
        throw bad("zip central directory entry \(entries.count + 1) is damaged")
      }
      var entry = Entry(
        name: String(decoding: directory[(at + 46)..<(at + 46 + nameLength)], as: UTF8.self),
        flags: u16(directory, at + 8), method: u16(directory, at + 10), crc: u32(directory, at + 16),
        compressedSize: UInt64(u32(directory, at + 20)), uncompressedSize: UInt64(u32(directory, at + 24)),
        localHeaderOffset: UInt64(u32(directory, at + 42)))
      var extra = at + 46 + nameLength
      let extraEnd = extra + extraLength
      while extra + 4 <= extraEnd {
        let id = u16(directory, extra)
        let length = Int(u16(directory, extra + 2))
        var field = extra + 4
        let fieldEnd = min(field + length, extraEnd)
        if id == 0x0001 {
          if entry.uncompressedSize == 0xFFFF_FFFF && field + 8 <= fieldEnd {
            entry.uncompressedSize = u64(directory, field)
            field += 8
          }
          if entry.compressedSize == 0xFFFF_FFFF && field + 8 <= fieldEnd {
            entry.compressedSize = u64(directory, field)
            field += 8
          }
          if entry.localHeaderOffset == 0xFFFF_FFFF && field + 8 <= fieldEnd {
            entry.localHeaderOffset = u64(directory, field)
          }
        }
        extra += 4 + length
      }
      entries.append(entry)
      at = next
    }
    return entries
  }

  private static func bytes(
    _ file: FileByteSource, at offset: Int64, count: Int, displayName: String
  ) throws(InputError) -> [UInt8] {
    let result = try file.bytes(at: offset, count: count)
    guard result.count == count else {
      throw .malformed(path: displayName, reason: "zip archive is truncated")
    }
    return result
  }

  static func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 {
    UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8
  }

  static func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
    UInt32(u16(bytes, at)) | UInt32(u16(bytes, at + 2)) << 16
  }

  static func u64(_ bytes: [UInt8], _ at: Int) -> UInt64 {
    UInt64(u32(bytes, at)) | UInt64(u32(bytes, at + 4)) << 32
  }
}

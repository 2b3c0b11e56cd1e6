// Safety: the drain buffer is allocated and freed here (`defer`) and only the sources write into it, within
// its count.

extension InputBytes {
  /// Checks a compressed input whole before any of its rows is read, so that a damaged one counts
  /// none of them: every gzip member inflates to its end and passes its CRC-32 and length check, and
  /// nothing but zero padding follows the last; every report entry of a zip inflates and passes its
  /// CRC-32 and size check. Throws the damage with its offset. Returns one line per zip entry left
  /// unread (not a report). A plain file is not read.
  package static func verify(path: String, displayName: String) throws(InputError) -> [String] {
    let file = try FileByteSource(path: path, displayName: displayName)
    switch try sniff(file, path: path, displayName: displayName) {
    case .plain:
      return []
    case .gzip:
      let gzip = try GzipByteSource(file: file, displayName: displayName)
      var produced: Int64 = 0
      do {
        try drain(gzip, counting: &produced)
      } catch {
        guard case .malformed(_, let reason) = error else { throw error }
        throw .malformed(
          path: displayName,
          reason: "\(reason), at byte \(gzip.compressedOffset) of the file (after \(produced) bytes of text)")
      }
      return []
    case .zip:
      let (entries, skipped) = try ZipDirectory.reportEntries(in: file, displayName: displayName)
      for entry in entries {
        let source = try ZipEntryByteSource(file: file, displayName: displayName, entry: entry)
        var produced: Int64 = 0
        do {
          try drain(source, counting: &produced)
        } catch {
          guard case .malformed(_, let reason) = error else { throw error }
          throw .malformed(
            path: displayName,
            reason: "\(reason) (entry at byte \(entry.localHeaderOffset), after \(produced) bytes of it)")
        }
      }
      return skipped.map { "zip entry '\($0)' is not a report (.csv): not read" }
    }
  }

  /// Reads `source` to its end, adding the bytes it gives to `produced`.
  static func drain(_ source: any ByteSource, counting produced: inout Int64) throws(InputError) {
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: 256 * 1024)
    defer { buffer.deallocate() }
    while true {
      let n = try source.read(into: buffer)
      if n == 0 { return }
      produced += Int64(n)
    }
  }
}

/// Opens an input file as a stream of UTF-8 text bytes, whatever its container and encoding.
package enum InputBytes {
  /// The container an input file turned out to be.
  package enum Container: Sendable, Equatable {
    /// A plain file.
    case plain
    /// gzip (magic `1F 8B`), possibly several concatenated members.
    case gzip
    /// A zip archive (magic `PK 03 04`); its CSV entries are read (``ZipArchiveByteSource``).
    case zip
  }

  /// Opens `path`: gzip and zip are recognised by their magic bytes (or a `.gz` / `.zip` name),
  /// a byte-order mark is honoured (UTF-16 converted to UTF-8, a UTF-8 BOM dropped).
  ///
  /// Errors name `displayName`, the path as the user wrote it.
  package static func open(path: String, displayName: String? = nil) throws(InputError) -> any ByteSource {
    try openNamingEntry(path: path, displayName: displayName).source
  }

  /// ``open(path:displayName:)``, also giving the name of the zip entry read (`nil` unless a zip):
  /// Google names the earnings month only there (`PlayApps_YYYYMM.csv`).
  package static func openNamingEntry(path: String, displayName: String? = nil) throws(InputError)
    -> (source: any ByteSource, zipEntry: String?)
  {
    let name = displayName ?? path
    let file = try FileByteSource(path: path, displayName: name)
    let container = try sniff(file, path: path, displayName: name)
    switch container {
    case .plain:
      return (TextDecodingSource(source: file, displayName: name), nil)
    case .gzip:
      return (
        TextDecodingSource(source: try GzipByteSource(file: file, displayName: name), displayName: name), nil
      )
    case .zip:
      let archive = try ZipArchiveByteSource(file: file, displayName: name)
      return (TextDecodingSource(source: archive, displayName: name), archive.entryName)
    }
  }

  /// Looks at the first bytes of `file` (without moving its read position).
  static func sniff(_ file: FileByteSource, path: String, displayName: String) throws(InputError) -> Container
  {
    let magic = try file.bytes(at: 0, count: 4)
    let got = magic.count
    let lower = path.lowercased()
    if got >= 2 && magic[0] == 0x1F && magic[1] == 0x8B { return .gzip }
    if got >= 4 && magic[0] == 0x50 && magic[1] == 0x4B && (magic[2] == 3 || magic[2] == 5) {
      return .zip
    }
    if lower.hasSuffix(".gz") {
      throw .malformed(path: displayName, reason: "the name ends in .gz but the file is not gzip data")
    }
    if lower.hasSuffix(".zip") {
      throw .malformed(path: displayName, reason: "the name ends in .zip but the file is not a zip archive")
    }
    return .plain
  }
}

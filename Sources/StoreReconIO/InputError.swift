/// Why an input file could not be read at all (as opposed to a row of it being rejected).
///
/// Every case names the file as the user wrote it, so ``description`` is a one-line message a
/// finance user can act on.
package enum InputError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file does not exist.
  case notFound(path: String)
  /// The file exists but cannot be read (permissions, a directory, an I/O error).
  case unreadable(path: String, reason: String)
  /// The container is broken or unsupported: bad gzip data, a zip without a CSV entry, an
  /// unsupported zip compression method, invalid UTF-16.
  case malformed(path: String, reason: String)
  /// The header row lacks columns the format requires.
  case missingColumns(file: String, [String])
  /// The file is clearly another kind of input than its role expects: `looksLike` says what it is and
  /// what it is not ("an Apple Summary Sales report, not App Store transactions"), `belongsUnder` the
  /// config key the file belongs under (`appStore.salesReports`).
  case wrongRole(path: String, looksLike: String, belongsUnder: String)

  /// The file the error is about.
  package var file: String {
    switch self {
    case .notFound(let path), .unreadable(let path, _), .malformed(let path, _), .missingColumns(let path, _),
      .wrongRole(let path, _, _):
      return path
    }
  }

  /// A one-line message naming the file.
  package var description: String {
    switch self {
    case .notFound(let path):
      return "\(path): file not found"
    case .unreadable(let path, let reason):
      return "\(path): cannot read the file: \(reason)"
    case .malformed(let path, let reason):
      return "\(path): malformed file: \(reason)"
    case .missingColumns(let file, let columns):
      let list = columns.map { "'\($0)'" }.joined(separator: ", ")
      return "\(file): header lacks required column\(columns.count == 1 ? "" : "s") \(list)"
    case .wrongRole(let path, let looksLike, let key):
      return "\(path): this file looks like \(looksLike) — list it under \(key)"
    }
  }

  /// The same error, naming the file as `displayName` instead of the path it was opened with.
  func naming(_ displayName: String) -> InputError {
    switch self {
    case .notFound: return .notFound(path: displayName)
    case .unreadable(_, let reason): return .unreadable(path: displayName, reason: reason)
    case .malformed(_, let reason): return .malformed(path: displayName, reason: reason)
    case .missingColumns(_, let columns): return .missingColumns(file: displayName, columns)
    case .wrongRole(_, let looksLike, let key):
      return .wrongRole(path: displayName, looksLike: looksLike, belongsUnder: key)
    }
  }
}

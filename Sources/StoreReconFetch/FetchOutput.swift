import StoreReconPlatform
package import StoreReconSettings
/// The files a fetch writes under `fetch.into`, by path relative to it (`apple/transactions.jsonl`). A
/// file is written whole and durably under a temporary name first, so a bad response or an interrupted
/// fetch never leaves a half file under the final name; a file whose bytes did not change is not
/// rewritten.
package final class FetchOutput {
  /// The folder (`fetch.into`, resolved).
  package let root: String
  /// The relative paths written (changed) so far, in order.
  package private(set) var written: [String] = []

  /// Output under `root`.
  package init(root: String) { self.root = root }

  /// The absolute path of `relative`.
  package func path(_ relative: String) -> String { root + "/" + relative }

  /// The bytes of `relative`, or `nil` when it does not exist.
  package func read(_ relative: String) -> [UInt8]? { DurableFile.read(path(relative)) }

  /// Whether `relative` exists.
  package func exists(_ relative: String) -> Bool { read(relative) != nil }

  /// Writes `bytes` to `relative` unless the file already holds them; returns whether it wrote.
  @discardableResult
  package func write(_ bytes: [UInt8], to relative: String) throws(FetchError) -> Bool {
    precondition(
      !relative.hasPrefix("/") && !relative.contains(".."), "FetchOutput: \(relative) is not inside")
    if read(relative) == bytes { return false }
    do {
      try DurableFile.write(bytes, to: path(relative))
    } catch {
      throw FetchError(.ioError, error.description)
    }
    written.append(relative)
    return true
  }
}

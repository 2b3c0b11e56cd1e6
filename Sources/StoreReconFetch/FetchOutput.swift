import Foundation
import StoreReconPlatform
package import StoreReconSettings
/// The files a fetch writes under `fetch.into`, by path relative to it (`apple/notifications.jsonl`). A
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

  /// The names of the files in the folder `relative` (none when it does not exist), hidden ones (a
  /// temporary file being written) left out.
  package func names(in relative: String) -> [String] {
    let entries = (try? FileManager.default.contentsOfDirectory(atPath: path(relative))) ?? []
    return entries.filter { !$0.hasPrefix(".") }
  }

  /// Removes the file `relative`.
  package func remove(_ relative: String) throws(FetchError) {
    do {
      try FileManager.default.removeItem(atPath: path(relative))
    } catch {
      throw FetchError(.ioError, "cannot remove \(path(relative)): \(error.localizedDescription)")
    }
  }

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

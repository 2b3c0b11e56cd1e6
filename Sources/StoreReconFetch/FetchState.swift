import Foundation
import StoreReconPlatform
package import StoreReconSettings

/// `<fetch.into>/state.json`: what each source fetched so far (its cursors), so a daily fetch asks only
/// for what is new and an interrupted one resumes. One JSON object per source, under its name; each
/// source owns the shape of its own (a `Codable` value). Written whole and durably (``DurableFile``)
/// each time a source saves, after each step.
///
/// ```json
/// {"sources": {"apple": {"history": {"2000000123": {"revision": "…", "complete": true}}, …}}, "version": 1}
/// ```
package final class FetchState {
  /// The file's path.
  package let path: String
  private var sources: [String: Any]

  /// The state read from `path`; empty when the file does not exist. Throws (data error) when it exists
  /// but is not a state file.
  package init(path: String) throws(FetchError) {
    self.path = path
    guard let bytes = DurableFile.read(path) else {
      sources = [:]
      return
    }
    guard let root = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any],
      let sources = root["sources"] as? [String: Any]
    else {
      throw FetchError(
        .dataError, "fetch state \(path) is not a storerecon state file (delete it to fetch anew)")
    }
    self.sources = sources
  }

  /// The state `source` saved last, decoded as `T`; `nil` when it saved none. Throws (data error) when
  /// what it saved does not decode as `T`.
  package func load<T: Decodable>(_ type: T.Type, for source: String) throws(FetchError) -> T? {
    guard let value = sources[source] else { return nil }
    do {
      let data = try JSONSerialization.data(withJSONObject: value)
      return try JSONDecoder().decode(T.self, from: data)
    } catch {
      throw FetchError(
        .dataError, "fetch state \(path): the \(source) section does not read (delete it to fetch anew)")
    }
  }

  /// Replaces `source`'s state with `value` and writes the file.
  package func save<T: Encodable>(_ value: T, for source: String) throws(FetchError) {
    do {
      let data = try JSONEncoder().encode(value)
      sources[source] = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw FetchError(.software, "fetch state: the \(source) section cannot be encoded: \(error)")
    }
    try write()
  }

  /// Writes the file (keys sorted, so an unchanged state writes the same bytes).
  private func write() throws(FetchError) {
    let root: [String: Any] = ["version": 1, "sources": sources]
    let data: Data
    do {
      data = try JSONSerialization.data(withJSONObject: root, options: [.sortedKeys, .prettyPrinted])
    } catch {
      throw FetchError(.software, "fetch state cannot be encoded: \(error)")
    }
    let bytes = [UInt8](data) + [0x0A]
    if DurableFile.read(path) == bytes { return }
    do {
      try DurableFile.write(bytes, to: path)
    } catch {
      throw FetchError(.ioError, error.description)
    }
  }
}

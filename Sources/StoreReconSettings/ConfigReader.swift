import Foundation

/// The one reader of the config file (`storerecon.json`, docs/config.md): the bytes of the file as one
/// checked JSON object, which the run's, the experiments', the mail and the fetch parsers then read their
/// sections from. It refuses what JSON itself lets through but a config must not hold: a key written
/// twice in one object, where a parser would silently keep one of the two values.
package enum ConfigReader {
  /// Why a config file could not be read.
  package enum Failure: Error, Equatable {
    /// The file does not exist.
    case missing
    /// The file is not valid JSON (or cannot be read): the parser's reason.
    case notJSON(String)
    /// The file's JSON is not an object.
    case notObject
    /// A key appears twice in one object: its path (`timeZone`, `app.entitlements`, `experiments[1].id`).
    case repeatedKey(String)
  }

  /// The config file at `path` as a JSON object, every key once per object.
  package static func object(atPath path: String) throws(Failure) -> [String: Any] {
    guard FileManager.default.fileExists(atPath: path) else { throw .missing }
    let data: Data
    let object: Any
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
      object = try JSONSerialization.jsonObject(with: data)
    } catch {
      throw .notJSON(describe(error))
    }
    guard let root = object as? [String: Any] else { throw .notObject }
    if let repeated = repeatedKey(in: [UInt8](data)) { throw .repeatedKey(repeated) }
    return root
  }

  /// A JSON parser's error as one line: Foundation's reason without its `NSError` wrapping.
  package static func describe(_ error: any Error) -> String {
    let nsError = error as NSError
    if let detail = nsError.userInfo["NSDebugDescription"] as? String { return detail }
    return nsError.localizedDescription
  }

  /// The path of the first key that appears twice in one object of `bytes` (valid JSON), as the schema's
  /// messages write paths: keys and array indexes (`timeZone`, `app.entitlements`, `experiments[1].id`).
  package static func repeatedKey(in bytes: [UInt8]) -> String? {
    var scanner = KeyScanner(bytes: bytes)
    return scanner.firstRepeat()
  }

  /// One pass over valid JSON text, keeping for each open object the keys seen so far.
  private struct KeyScanner {
    struct Level {
      var path: String
      var isObject: Bool
      var keys: Set<String> = []
      var expectsKey = true
      var lastKey = ""
      var index = 0
    }

    let bytes: [UInt8]
    var position = 0
    var levels: [Level] = []

    init(bytes: [UInt8]) { self.bytes = bytes }

    mutating func firstRepeat() -> String? {
      while position < bytes.count {
        let byte = bytes[position]
        switch byte {
        case UInt8(ascii: "{"), UInt8(ascii: "["):
          levels.append(Level(path: childPath(), isObject: byte == UInt8(ascii: "{")))
          position += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
          _ = levels.popLast()
          position += 1
        case UInt8(ascii: ","):
          if let last = levels.indices.last {
            levels[last].expectsKey = levels[last].isObject
            levels[last].index += 1
          }
          position += 1
        case UInt8(ascii: "\""):
          let text = string()
          guard let last = levels.indices.last, levels[last].isObject, levels[last].expectsKey else {
            continue
          }
          if !levels[last].keys.insert(text).inserted {
            let path = levels[last].path
            return path.isEmpty ? text : path + "." + text
          }
          levels[last].expectsKey = false
          levels[last].lastKey = text
        default:
          position += 1
        }
      }
      return nil
    }

    /// The path of a value opened here: the enclosing object's key or array index after its own path.
    func childPath() -> String {
      guard let parent = levels.last else { return "" }
      if !parent.isObject { return parent.path + "[\(parent.index)]" }
      return parent.path.isEmpty ? parent.lastKey : parent.path + "." + parent.lastKey
    }

    /// The string literal starting at `position` (a quote), decoded; `position` moves past it.
    mutating func string() -> String {
      let start = position
      position += 1
      while position < bytes.count && bytes[position] != UInt8(ascii: "\"") {
        position += bytes[position] == UInt8(ascii: "\\") ? 2 : 1
      }
      position += 1
      let literal = Data(bytes[start..<min(position, bytes.count)])
      let decoded = try? JSONSerialization.jsonObject(with: literal, options: .fragmentsAllowed) as? String
      return decoded ?? String(decoding: bytes[start + 1..<max(start + 1, position - 1)], as: UTF8.self)
    }
  }
}

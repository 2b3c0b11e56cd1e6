import Foundation
import StoreReconSettings

/// Reading Google's JSON answers and writing JSON Lines: an answer must say it is JSON and parse as one
/// object, else the request is named and nothing is written from it.
enum GoogleJSON {
  /// The body of `response` as a JSON object. Throws (data error) naming `request` when the answer is not
  /// JSON (an HTML error page, a truncated body).
  static func object(_ response: HTTPResponse, for request: HTTPRequest) throws(FetchError) -> [String: Any] {
    let type = response.header("Content-Type")?.lowercased() ?? ""
    guard type.contains("json") else {
      let what = response.excerpt == "an HTML page" ? "an HTML page" : "'\(type.isEmpty ? "no type" : type)'"
      throw FetchError(.dataError, "\(request.label): the answer is \(what), not JSON")
    }
    guard let value = try? JSONSerialization.jsonObject(with: Data(response.body)),
      let object = value as? [String: Any]
    else {
      throw FetchError(
        .dataError, "\(request.label): the answer is not a whole JSON object (\(response.body.count) bytes)")
    }
    return object
  }

  /// One JSON Lines line of `object`: keys sorted, slashes unescaped, ending in a newline.
  static func line(_ object: [String: Any]) throws(FetchError) -> [UInt8] {
    guard
      let data = try? JSONSerialization.data(
        withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
    else { throw FetchError(.software, "google: a record cannot be encoded as JSON") }
    return [UInt8](data) + [0x0A]
  }

  /// The objects of a JSON Lines file (blank lines skipped), or `nil` for a line that is not an object.
  static func lines(_ bytes: [UInt8]) -> [[String: Any]]? {
    var out: [[String: Any]] = []
    for line in bytes.split(separator: 0x0A) where line.contains(where: { $0 != 0x20 && $0 != 0x0D }) {
      guard let value = try? JSONSerialization.jsonObject(with: Data(line)),
        let object = value as? [String: Any]
      else { return nil }
      out.append(object)
    }
    return out
  }

  /// The objects of the fetched JSON Lines file `path` by their text member `key` (those without one are
  /// dropped); empty when the file does not exist. Throws (data error) when it is not JSON Lines of `what`.
  static func previous(_ output: FetchOutput, _ path: String, key: String, what: String) throws(FetchError)
    -> [String: [String: Any]]
  {
    guard let bytes = output.read(path) else { return [:] }
    guard let objects = lines(bytes) else {
      throw FetchError(
        .dataError, "\(output.path(path)) is not JSON Lines of \(what) (delete it to fetch anew)")
    }
    var out: [String: [String: Any]] = [:]
    for object in objects {
      if let value = object[key] as? String, !value.isEmpty { out[value] = object }
    }
    return out
  }
}

import Foundation
import StoreReconPlatform
import StoreReconSettings

/// The financial reports in the developer account's Cloud Storage bucket (`pubsite_prod_rev_<id>`):
/// `objects.list` under `sales/` and `earnings/`, then `alt=media` for each object not fetched before or
/// whose generation or MD5 changed (the current month's sales report is rewritten daily), into
/// `play/sales/<name>` and `play/earnings/<name>` as Google stores them (zip files). Each download is
/// checked against the object's `md5Hash` before it is written, and the state saved after each one.
struct GoogleReports {
  /// The bucket folders fetched, and where they go under `fetch.into`.
  static let folders = [("sales/", "play/sales/"), ("earnings/", "play/earnings/")]

  let context: FetchContext
  let auth: GoogleAuth
  let bucket: String

  /// What one pass did.
  struct Outcome {
    var listed = 0
    var downloaded = 0
  }

  /// Lists, downloads what changed, and calls `checkpoint` with the state after each file written.
  func run(_ state: inout GoogleFetchState, checkpoint: (GoogleFetchState) throws(FetchError) -> Void)
    throws(FetchError) -> Outcome
  {
    var outcome = Outcome()
    for (prefix, folder) in GoogleReports.folders {
      for object in try list(prefix: prefix) {
        outcome.listed += 1
        let file = String(object.name.dropFirst(prefix.count))
        // Only plain file names directly in the folder (nothing Cloud Storage could name `..` or a subfolder).
        guard !file.isEmpty, !file.contains("/"), !file.hasPrefix(".") else { continue }
        let path = folder + file
        let fetched = GoogleFetchState.FetchedObject(
          generation: object.generation, md5Hash: object.md5Hash, path: path)
        if state.objects[object.name] == fetched && context.output.exists(path) { continue }
        let bytes = try download(object)
        try context.output.write(bytes, to: path)
        state.objects[object.name] = fetched
        outcome.downloaded += 1
        try checkpoint(state)
      }
    }
    return outcome
  }

  /// One object as `objects.list` describes it.
  struct StorageObject {
    var name: String
    var generation: String
    var md5Hash: String
  }

  /// Every object whose name starts with `prefix`, following `nextPageToken`.
  func list(prefix: String) throws(FetchError) -> [StorageObject] {
    let base = context.config.storageURL + "/storage/v1/b/" + GoogleURL.segment(bucket) + "/o"
    var out: [StorageObject] = []
    var pageToken: String?
    var seen = Set<String>()
    repeat {
      var query = [("prefix", prefix)]
      if let pageToken { query.append(("pageToken", pageToken)) }
      let request = HTTPRequest(url: GoogleURL.query(base, query), headers: [("Accept", "application/json")])
      let response = try context.http.send(request, tokens: auth)
      try context.http.require(response, for: request)
      let body = try GoogleJSON.object(response, for: request)
      guard let items = body["items"] as? [Any] ?? (body["items"] == nil ? [] : nil) else {
        throw FetchError(.dataError, "\(request.label): items is not a list")
      }
      for (index, item) in items.enumerated() {
        guard let object = item as? [String: Any], let name = object["name"] as? String,
          name.hasPrefix(prefix), let generation = object["generation"] as? String,
          let md5 = object["md5Hash"] as? String
        else {
          throw FetchError(
            .dataError, "\(request.label): items[\(index)] has no name, generation and md5Hash")
        }
        out.append(StorageObject(name: name, generation: generation, md5Hash: md5))
      }
      pageToken = body["nextPageToken"] as? String
      if let next = pageToken, !seen.insert(next).inserted {
        throw FetchError(.dataError, "\(request.label): the page token repeats (the list does not end)")
      }
    } while pageToken?.isEmpty == false
    return out
  }

  /// The bytes of `object` at its listed generation, checked against its MD5.
  func download(_ object: StorageObject) throws(FetchError) -> [UInt8] {
    let url = GoogleURL.query(
      context.config.storageURL + "/storage/v1/b/" + GoogleURL.segment(bucket) + "/o/"
        + GoogleURL.segment(object.name), [("alt", "media"), ("generation", object.generation)])
    let request = HTTPRequest(url: url)
    let response = try context.http.send(request, tokens: auth)
    try context.http.require(response, for: request)
    let md5 = Data(MD5Digest.bytes(of: response.body)).base64EncodedString()
    guard md5 == object.md5Hash else {
      throw FetchError(
        .dataError,
        "\(request.label): the \(response.body.count) bytes received do not match the object's md5Hash "
          + "(a damaged or changed download; nothing written)")
    }
    return response.body
  }
}

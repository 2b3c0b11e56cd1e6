import Foundation
import StoreReconSettings

/// `stripe/objects/`: the latest state of every object fetched so far, as a journal (``FetchJournal``):
/// one object a line exactly as Stripe returned it (the whitespace between tokens taken out). Each fetch
/// writes the objects it found new or changed, ordered by id, as the journal's next file; a later line
/// of an id is its later state (the run keeps it: docs/inputs.md#records-read-twice).
struct StripeObjects {
  /// The journal's folder, relative to `fetch.into`.
  static let folder = "stripe/objects"

  /// The journal of `output`, with the single file earlier versions rewrote.
  static func journal(_ output: FetchOutput) -> FetchJournal {
    FetchJournal(output: output, folder: folder, legacyPath: "stripe/objects.jsonl")
  }

  /// One object: its kind, its line (without the newline) and its decoded members.
  struct Entry {
    var resource: StripeResource
    var line: [UInt8]
    var object: [String: Any]
  }

  private(set) var entries: [String: Entry] = [:]
  /// The ids whose line this fetch made new or changed.
  private var changed = Set<String>()

  /// How many objects it holds.
  var count: Int { entries.count }

  /// Whether it holds the object `id`.
  func contains(_ id: String) -> Bool { entries[id] != nil }

  /// The objects of the journal's files, read in order (none when there are none). Throws (data error)
  /// when a line is not a Stripe object of a kind this fetch writes.
  static func previous(_ journal: FetchJournal) throws(FetchError) -> StripeObjects {
    var objects = StripeObjects()
    for (path, bytes) in try journal.files() {
      for (index, line) in bytes.split(separator: 0x0A).enumerated() {
        guard let value = try? JSONSerialization.jsonObject(with: Data(line)),
          let object = value as? [String: Any], (try? objects.put(Array(line), object)) != nil
        else {
          throw FetchError(
            .dataError,
            "\(journal.output.path(path)) line \(index + 1) is not a Stripe object this fetch writes (delete "
              + "\(journal.output.path(folder)) to fetch anew)")
        }
      }
    }
    objects.changed = []
    return objects
  }

  /// The lines of the objects this fetch made new or changed, by id (`nil` when there are none); they
  /// count as written after.
  mutating func takeChanged() -> [UInt8]? {
    guard !changed.isEmpty else { return nil }
    var out: [UInt8] = []
    for id in changed.sorted() {
      guard let entry = entries[id] else { continue }
      out += entry.line
      out.append(0x0A)
    }
    changed = []
    return out
  }

  /// Keeps `object` (whose text is `line`) as the latest state of its id. Throws when it has no `id`, or an
  /// `object` member that is not one of the kinds fetched.
  @discardableResult
  mutating func put(_ line: [UInt8], _ object: [String: Any]) throws(FetchError) -> StripeResource {
    guard let id = object["id"] as? String, !id.isEmpty, let kind = object["object"] as? String,
      let resource = StripeResource(rawValue: kind)
    else {
      throw FetchError(.dataError, "stripe: an object without an id, or of a kind not fetched")
    }
    if entries[id]?.line != line { changed.insert(id) }
    entries[id] = Entry(resource: resource, line: line, object: object)
    return resource
  }

  /// The objects the held ones refer to that it does not hold, sorted (kind, id).
  func missingReferences() -> [(StripeResource, String)] {
    var missing = Set<String>()
    var out: [(StripeResource, String)] = []
    for id in entries.keys.sorted() {
      guard let entry = entries[id] else { continue }
      for (kind, path) in entry.resource.references {
        for referenced in StripeObjects.ids(at: path[...], in: entry.object)
        where entries[referenced] == nil && missing.insert(referenced).inserted {
          out.append((kind, referenced))
        }
      }
    }
    return out.sorted { ($0.0.rawValue, $0.1) < ($1.0.rawValue, $1.1) }
  }

  /// The ids at `path` in `object` (`*` steps into every element of a list; an expanded object gives its
  /// `id`).
  static func ids(at path: ArraySlice<String>, in value: Any?) -> [String] {
    guard let step = path.first else {
      if let id = value as? String, !id.isEmpty { return [id] }
      if let object = value as? [String: Any], let id = object["id"] as? String, !id.isEmpty { return [id] }
      return []
    }
    if step == "*" {
      guard let list = value as? [Any] else { return [] }
      return list.flatMap { ids(at: path.dropFirst(), in: $0) }
    }
    guard let object = value as? [String: Any] else { return [] }
    return ids(at: path.dropFirst(), in: object[step])
  }

  /// The ids of the held objects of `resource` whose `member` is not one of `final` (subscriptions still
  /// running, disputes still open), sorted.
  func unsettled(_ resource: StripeResource, member: String, final: Set<String>) -> [String] {
    entries.filter { $0.value.resource == resource }
      .filter { !final.contains(($0.value.object[member] as? String) ?? "") }
      .map(\.key).sorted()
  }
}

import Foundation
import StoreReconSettings

/// `stripe/events/`: every event the fetches have listed, as a journal (``FetchJournal``): one a line
/// exactly as Stripe wrote it (the whitespace between tokens taken out); each fetch writes the events it
/// listed first, ordered by id, as the journal's next file. The run reads it under `stripe.events` as
/// Stripe's notification history (docs/fetch.md#stripe). Stripe keeps events 30 days; the journal keeps
/// them as long as it is kept. An event listed again keeps its first line: only its `pending_webhooks`
/// count can have changed, and a fetch with nothing new writes no file.
struct StripeEvents {
  /// The journal's folder, relative to `fetch.into`.
  static let folder = "stripe/events"

  /// The journal of `output`, with the single file earlier versions rewrote.
  static func journal(_ output: FetchOutput) -> FetchJournal {
    FetchJournal(output: output, folder: folder, legacyPath: "stripe/events.jsonl")
  }

  private(set) var lines: [String: [UInt8]] = [:]
  /// The ids this fetch listed first.
  private var added = Set<String>()

  /// How many events it holds.
  var count: Int { lines.count }

  /// The events of the journal's files (none when there are none). Throws (data error) when a line is
  /// not a Stripe event.
  static func previous(_ journal: FetchJournal) throws(FetchError) -> StripeEvents {
    var events = StripeEvents()
    for (path, bytes) in try journal.files() {
      for (index, line) in bytes.split(separator: 0x0A).enumerated() {
        guard let value = try? JSONSerialization.jsonObject(with: Data(line)),
          let object = value as? [String: Any], object["object"] as? String == "event",
          let id = object["id"] as? String, !id.isEmpty
        else {
          throw FetchError(
            .dataError,
            "\(journal.output.path(path)) line \(index + 1) is not a Stripe event (delete "
              + "\(journal.output.path(folder)) to fetch anew)")
        }
        if events.lines[id] == nil { events.lines[id] = Array(line) }
      }
    }
    return events
  }

  /// The lines of the events this fetch listed first, by id (`nil` when there are none).
  mutating func takeAdded() -> [UInt8]? {
    guard !added.isEmpty else { return nil }
    var out: [UInt8] = []
    for id in added.sorted() {
      out += lines[id] ?? []
      out.append(0x0A)
    }
    added = []
    return out
  }

  /// Keeps the event `id` (whose text is `line`) unless the file holds it already; returns whether it
  /// is new.
  @discardableResult
  mutating func put(_ id: String, _ line: [UInt8]) -> Bool {
    guard lines[id] == nil else { return false }
    lines[id] = line
    added.insert(id)
    return true
  }
}

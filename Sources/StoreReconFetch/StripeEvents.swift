import Foundation
import StoreReconSettings

/// `stripe/events.jsonl`: every event the fetches have listed, one a line exactly as Stripe wrote it (the
/// whitespace between tokens taken out), ordered by id; the run reads it under `stripe.events` as
/// Stripe's notification history (docs/fetch.md#stripe). Stripe keeps events 30 days; the file keeps
/// them as long as it is kept. An event listed again keeps its first line: only its
/// `pending_webhooks` count can have changed, and a fetch with nothing new changes no byte.
struct StripeEvents {
  /// The file, relative to `fetch.into`.
  static let path = "stripe/events.jsonl"

  private(set) var lines: [String: [UInt8]] = [:]

  /// How many events it holds.
  var count: Int { lines.count }

  /// The events of the file a previous fetch wrote (none when there is none). Throws (data error) when a
  /// line is not a Stripe event.
  static func previous(_ output: FetchOutput) throws(FetchError) -> StripeEvents {
    var events = StripeEvents()
    guard let bytes = output.read(path) else { return events }
    for (index, line) in bytes.split(separator: 0x0A).enumerated() {
      guard let value = try? JSONSerialization.jsonObject(with: Data(line)),
        let object = value as? [String: Any], object["object"] as? String == "event",
        let id = object["id"] as? String, !id.isEmpty
      else {
        throw FetchError(
          .dataError,
          "\(output.path(path)) line \(index + 1) is not a Stripe event (delete the file to fetch anew)")
      }
      events.lines[id] = Array(line)
    }
    return events
  }

  /// Keeps the event `id` (whose text is `line`) unless the file holds it already; returns whether it
  /// is new.
  @discardableResult
  mutating func put(_ id: String, _ line: [UInt8]) -> Bool {
    guard lines[id] == nil else { return false }
    lines[id] = line
    return true
  }

  /// The file's bytes: every line, by id.
  func bytes() -> [UInt8] {
    var out: [UInt8] = []
    for id in lines.keys.sorted() {
      out += lines[id] ?? []
      out.append(0x0A)
    }
    return out
  }
}

/// The feed's transactions of one tie-out cell (App Store transaction ids, Play order ids): the
/// ``limit`` smallest in `String` order, and how many there are. Parts add up
/// (``merge(_:)``) to what one pass over all of them gives, since a transaction is in one chain only.
package struct TieOutIds: Sendable, Equatable {
  /// How many ids a cell's detail lists.
  package static let limit = 20

  /// The smallest ids, ascending, distinct, at most ``limit``.
  package private(set) var shown: [String] = []
  /// How many distinct ids the cell has.
  package private(set) var count: Int64 = 0

  /// No id.
  package init() {}

  /// The ids of a partial (`shown` as written, at most ``limit``) and their number.
  package init(shown: [String], count: Int64) {
    for id in shown { keep(id) }
    self.count = max(count, Int64(self.shown.count))
  }

  /// Adds one more id of the cell (the caller adds each id once).
  package mutating func add(_ id: String) {
    count += 1
    keep(id)
  }

  /// Adds another part's ids (ids of other chains).
  package mutating func merge(_ other: TieOutIds) {
    count += other.count
    for id in other.shown { keep(id) }
  }

  /// `id` among the shown ones where it is among the smallest.
  private mutating func keep(_ id: String) {
    if shown.count == Self.limit, let last = shown.last, id >= last { return }
    var lower = 0
    var upper = shown.count
    while lower < upper {
      let middle = (lower + upper) / 2
      if shown[middle] < id { lower = middle + 1 } else { upper = middle }
    }
    if lower < shown.count && shown[lower] == id { return }
    shown.insert(id, at: lower)
    if shown.count > Self.limit { shown.removeLast() }
  }

  /// `1000000001, 1000000002 … and 3 more` (`what` names the ids: `feed transactions`, `feed orders`);
  /// that the feed has none when it has none.
  package func text(_ what: String) -> String {
    guard !shown.isEmpty else { return "the feed has no transaction in this cell" }
    let more = count - Int64(shown.count)
    return "\(what): " + shown.joined(separator: ", ") + (more > 0 ? " … and \(more) more" : "")
  }
}

/// Stripe's balance reports read once per balance transaction (docs/inputs.md#stripe-balance-reports).
///
/// Stripe's reports cover whatever interval they were run for, so two files (a month and a quarter, or
/// a report downloaded twice) may hold the same balance transactions. A balance transaction id seen
/// again with the same row (file and line aside) is a duplicate and counts once; seen again with other
/// money, category or ids, it conflicts and the run stops, since either could be the right one.
package enum StripeBalanceCopies {
  /// A balance transaction two rows state differently.
  package struct Conflict: Error, Sendable, Equatable {
    package var id: String
    package var first: Origin
    package var second: Origin
  }

  /// Removes the rows whose balance transaction an earlier row (by file, then line) already holds;
  /// returns how many rows each file lost, or the first conflict (rows then unchanged).
  package static func readOnce(_ rows: inout [StripeBalanceRow]) -> Result<[Int32: Int], Conflict> {
    guard rows.count > 1 else { return .success([:]) }
    var order = Array(rows.indices)
    order.sort { (rows[$0].origin.file, rows[$0].origin.line) < (rows[$1].origin.file, rows[$1].origin.line) }
    var first: [String: Int] = [:]
    first.reserveCapacity(rows.count)
    var drop: [Int] = []
    var dropped: [Int32: Int] = [:]
    for i in order {
      guard let earlier = first[rows[i].id] else {
        first[rows[i].id] = i
        continue
      }
      var copy = rows[i]
      copy.origin = rows[earlier].origin
      guard copy == rows[earlier] else {
        return .failure(Conflict(id: rows[i].id, first: rows[earlier].origin, second: rows[i].origin))
      }
      drop.append(i)
      dropped[rows[i].origin.file, default: 0] += 1
    }
    guard !drop.isEmpty else { return .success([:]) }
    let gone = Set(drop)
    rows = rows.indices.filter { !gone.contains($0) }.map { rows[$0] }
    return .success(dropped)
  }
}

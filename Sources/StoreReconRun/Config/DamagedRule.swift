package import StoreReconCore

/// When an input counts as *damaged* (config `damaged`): more than `maxRejectPercent` of its rows
/// rejected (once it has at least `minRejects` rejects: one bad row of a small file says nothing), or
/// `maxRejects` rejects whatever its size. A damaged input stops the run (exit 65) unless
/// `--allow-damaged`.
package struct DamagedRule: Sendable, Equatable {
  /// The share of rows, in hundredths of a percent (100 = 1 %).
  package var maxRejectBasisPoints: Int64 = 100
  /// The most rejects one input may have, whatever its size.
  package var maxRejects = 100_000
  /// Below this many rejects the share does not apply.
  package var minRejects = 10

  /// Why an input with `counts` is damaged, or `nil` when it is not.
  package func reason(_ counts: InputCounts) -> String? {
    let rejected = Int64(counts.rejected)
    if counts.rejected > 0 && counts.rejected >= maxRejects {
      return "\(counts.rejected) of \(counts.read) rows rejected (the limit is \(maxRejects) rejects)"
    }
    guard counts.rejected >= minRejects, rejected * 10_000 > Int64(counts.read) * maxRejectBasisPoints
    else { return nil }
    return "\(counts.rejected) of \(counts.read) rows rejected (more than \(percentText) of its rows)"
  }

  /// ``maxRejectBasisPoints`` as a percentage (`1 %`, `0.5 %`).
  package var percentText: String {
    let whole = maxRejectBasisPoints / 100
    let rest = maxRejectBasisPoints % 100
    guard rest != 0 else { return "\(whole) %" }
    let digits = rest % 10 == 0 ? "\(rest / 10)" : (rest < 10 ? "0\(rest)" : "\(rest)")
    return "\(whole).\(digits) %"
  }
}

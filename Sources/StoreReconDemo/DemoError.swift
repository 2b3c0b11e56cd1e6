/// Why the demo world could not be generated.
package enum DemoError: Error, Equatable, Sendable, CustomStringConvertible {
  /// A file or folder could not be written.
  case cannotWrite(String, String)
  /// Too few users to place every planted problem and trap among clean users.
  case tooFewUsers(requested: Int, minimum: Int)
  /// A currency the demo prices in is missing from the ISO 4217 table.
  case unknownCurrency(String)
  /// More identifiers were needed than their format can hold.
  case identifiersExhausted(String)
  /// The generator's own check of docs/rules.md disagrees with what a scenario planted (a generator bug).
  case inconsistentTruth(String)

  package var description: String {
    switch self {
    case .cannotWrite(let path, let why): return "cannot write \(path): \(why)"
    case .tooFewUsers(let requested, let minimum):
      return "--users \(requested) is too few for the demo's planted problems; use at least \(minimum)"
    case .unknownCurrency(let code): return "currency \(code) is not in the ISO 4217 table"
    case .identifiersExhausted(let what): return "too many \(what) for the demo's identifier format"
    case .inconsistentTruth(let what): return "demo generator bug: \(what)"
    }
  }
}

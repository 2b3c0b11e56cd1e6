package import StoreReconCore

/// Options parsed from an argument list: `--opt value`, `--opt=value`, flags, `--` ending options.
package struct ParsedOptions {
  package struct Failure: Error {
    package var message: String

    /// A usage failure saying `message`.
    package init(message: String) { self.message = message }
  }

  /// `--date YYYY-MM-DD` if given (`nil` if not); a usage failure for anything else.
  package func date() throws(Failure) -> CivilDate? {
    guard let text = values["--date"] else { return nil }
    guard let d = CivilDate.parse(text) else {
      throw Failure(message: "--date must be a calendar date YYYY-MM-DD, got '\(text)'")
    }
    return d
  }

  /// The short forms of the common options, wherever the command has the long one.
  /// ` — did you mean 'run'?` when `word` is a near miss of one of `known` (``ConfigSchema/closest(to:among:)``),
  /// else nothing.
  package static func didYouMean(_ word: String, among known: [String]) -> String {
    ConfigSchema.closest(to: word, among: known).map { " — did you mean '\($0)'?" } ?? ""
  }

  package static let shortNames = ["-c": "--config", "-d": "--date", "-o": "--out", "-q": "--quiet"]

  package var values: [String: String] = [:]
  package var flags: Set<String> = []
  package var positional: [String] = []
  package var help = false

  package static func parse(_ args: [String], valued: Set<String>, flags allowed: Set<String>) throws(Failure)
    -> ParsedOptions
  {
    var parsed = ParsedOptions()
    var i = 0
    var optionsEnded = false
    while i < args.count {
      let arg = args[i]
      i += 1
      if optionsEnded || !arg.hasPrefix("-") || arg == "-" {
        parsed.positional.append(arg)
        continue
      }
      if arg == "--" {
        optionsEnded = true
        continue
      }
      if arg == "--help" || arg == "-h" {
        parsed.help = true
        continue
      }
      var name = arg
      var inline: String?
      if let eq = arg.firstIndex(of: "=") {
        name = String(arg[..<eq])
        inline = String(arg[arg.index(after: eq)...])
      }
      if let long = shortNames[name], valued.contains(long) || allowed.contains(long) { name = long }
      if valued.contains(name) {
        if let inline {
          parsed.values[name] = inline
        } else {
          guard i < args.count else { throw Failure(message: "missing value for '\(name)'") }
          parsed.values[name] = args[i]
          i += 1
        }
      } else if allowed.contains(name) && inline == nil {
        parsed.flags.insert(name)
      } else {
        let known = Array(valued) + Array(allowed) + ["--help"]
        throw Failure(message: "unknown option '\(name)'\(ParsedOptions.didYouMean(name, among: known))")
      }
    }
    return parsed
  }
}

/// The sources `storerecon fetch` knows, in the order a fetch of every configured source runs them.
package enum FetchRegistry {
  /// A new instance of every source (add one line per source).
  package static func sources() -> [any FetchSource] {
    [
      AppleFetchSource(),
      GoogleFetchSource(),
      StripeFetchSource(),
    ]
  }

  /// The names of every source, for the help text and the usage error.
  package static var names: [String] { sources().map(\.name) }

  /// The source called `name`, or `nil`.
  package static func source(named name: String) -> (any FetchSource)? {
    sources().first { $0.name == name }
  }
}

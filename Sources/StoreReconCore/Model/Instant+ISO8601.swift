extension Instant {
  /// Parses an ISO 8601 timestamp with offset from a `String`; see ``parseISO8601(_:)-(UnsafeBufferPointer<UInt8>)``.
  package static func parseISO8601(_ text: String) -> Instant? {
    var text = text
    return text.withUTF8 { parseISO8601($0) }
  }
}

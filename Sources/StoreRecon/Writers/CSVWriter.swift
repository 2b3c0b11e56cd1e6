/// Builds RFC 4180 CSV text in memory: comma-separated, CRLF-free (`\n` line ends), fields quoted only
/// when they hold a comma, quote, CR or LF.
public struct CSVWriter: Sendable {
  /// The bytes written so far.
  public private(set) var bytes: [UInt8] = []

  /// Starts a file with its header row.
  public init(header: [String]) {
    bytes.reserveCapacity(1 << 16)
    row(header)
  }

  /// Appends one row.
  public mutating func row(_ fields: [String]) {
    for (i, field) in fields.enumerated() {
      if i > 0 { bytes.append(0x2C) }
      append(field)
    }
    bytes.append(0x0A)
  }

  private mutating func append(_ field: String) {
    let utf8 = field.utf8
    let needsQuotes = utf8.contains { $0 == 0x2C || $0 == 0x22 || $0 == 0x0A || $0 == 0x0D }
    guard needsQuotes else {
      bytes.append(contentsOf: utf8)
      return
    }
    bytes.append(0x22)
    for b in utf8 {
      if b == 0x22 { bytes.append(0x22) }
      bytes.append(b)
    }
    bytes.append(0x22)
  }
}

/// An e-mail address as the config writes it: `finance@acme.example` or `Acme Recon <recon@acme.example>`.
package struct MailAddress: Sendable, Equatable {
  /// The display name, if any (`Acme Recon`).
  package var displayName: String?
  /// The address itself (`recon@acme.example`): what SMTP's MAIL FROM and RCPT TO carry.
  package var address: String

  /// Creates an address.
  package init(displayName: String? = nil, address: String) {
    self.displayName = displayName
    self.address = address
  }

  /// Parses `addr` or `Name <addr>`; `nil` when the address is not `local@domain` in printable ASCII
  /// without spaces, angle brackets, commas or quotes.
  package static func parse(_ text: String) -> MailAddress? {
    let trimmed = text.trimmingSpaces
    var name: String?
    var address = trimmed
    if trimmed.hasSuffix(">"), let open = trimmed.lastIndex(of: "<") {
      address = String(trimmed[trimmed.index(after: open)..<trimmed.index(before: trimmed.endIndex)])
      var display = String(trimmed[..<open]).trimmingSpaces
      if display.count >= 2 && display.hasPrefix("\"") && display.hasSuffix("\"") {
        display = String(display.dropFirst().dropLast())
      }
      if display.unicodeScalars.contains(where: { $0.value < 0x20 || $0 == "\"" || $0 == "\\" }) {
        return nil
      }
      name = display.isEmpty ? nil : display
    }
    guard isAddress(address) else { return nil }
    return MailAddress(displayName: name, address: address)
  }

  static func isAddress(_ text: String) -> Bool {
    let parts = text.split(separator: "@", omittingEmptySubsequences: false)
    guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty, parts[0].utf8.count <= 64,
      text.utf8.count <= 254
    else { return false }
    let forbidden: Set<UInt8> = Set(" <>(),;:\"[]\\".utf8)
    return text.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && !forbidden.contains($0) }
  }

  /// The domain part (`acme.example`).
  package var domain: String { address.split(separator: "@").last.map(String.init) ?? address }
}

extension String {
  /// The string without leading and trailing spaces and tabs.
  var trimmingSpaces: String {
    var s = Substring(self)
    while let f = s.first, f == " " || f == "\t" { s.removeFirst() }
    while let l = s.last, l == " " || l == "\t" { s.removeLast() }
    return String(s)
  }
}

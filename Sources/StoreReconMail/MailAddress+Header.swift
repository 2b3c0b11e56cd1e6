package import StoreReconSettings

extension MailAddress: CustomStringConvertible {
  /// The RFC 5322 form for a header: `"Acme Recon" <recon@acme.example>`, the name encoded when not ASCII.
  package var headerValue: String {
    guard let displayName else { return address }
    return "\(HeaderText.phrase(displayName)) <\(address)>"
  }

  package var description: String { headerValue }
}

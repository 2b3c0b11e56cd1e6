import Foundation

/// The config's `"mail"` section: who sends the morning e-mail to whom, through which SMTP server.
///
/// The SMTP password never sits in the config or on the command line: `passwordEnv` names an
/// environment variable, `passwordFile` a file (relative to the config's folder) that holds it.
package struct MailSettings: Sendable, Equatable {
  /// How the connection is encrypted.
  package enum TLS: String, Sendable {
    /// `smtp://` and STARTTLS, required (libcurl `CURLUSESSL_ALL`): the default for `smtp://`.
    case starttls
    /// `smtps://`: TLS from the first byte (port 465): the default for `smtps://`.
    case implicit
    /// `smtp://` in clear text: for a relay on the same host or a test server only.
    case none
  }

  /// Where the password comes from.
  package enum PasswordSource: Sendable, Equatable {
    /// The named environment variable.
    case environment(String)
    /// The file at this path (resolved); one trailing line break is dropped.
    case file(String)
  }

  /// Sender (`From:` and SMTP `MAIL FROM`).
  package var from: MailAddress
  /// Recipients (`To:` and SMTP `RCPT TO`).
  package var to: [MailAddress]
  /// `smtp://host:587` or `smtps://host:465`.
  package var smtpURL: String
  /// Encryption of the connection.
  package var tls: TLS
  /// SMTP AUTH user name; `nil` sends without AUTH.
  package var username: String?
  /// Where the AUTH password comes from (set exactly when `username` is).
  package var password: PasswordSource?
  /// Put before the subject (`[storerecon]`).
  package var subjectPrefix: String
  /// Give up on the SMTP server after this many seconds.
  package var timeoutSeconds: Int
  /// PEM file of the CA certificates that sign the server's certificate (a private relay); `nil` uses
  /// the system's CA store.
  package var caFile: String?

  static let keys: Set<String> = [
    "from", "to", "smtp", "tls", "username", "passwordEnv", "passwordFile", "subjectPrefix", "timeoutSeconds",
    "caFile",
  ]

  /// Reads the `"mail"` value of a config; `nil` when the config has none.
  package static func parse(_ value: Any?, baseDirectory: String, name: String) throws(MailError)
    -> MailSettings?
  {
    guard let value else { return nil }
    func fail(_ what: String) -> MailError { MailError(.config, "config \(name): mail.\(what)") }
    guard let mail = value as? [String: Any] else {
      throw MailError(.config, "config \(name): mail must be an object")
    }
    if mail["password"] != nil {
      throw fail(
        "password is not allowed: never put the SMTP password in the config; name an environment variable (passwordEnv) or a file (passwordFile)"
      )
    }
    if let unknown = mail.keys.filter({ !keys.contains($0) }).sorted().first {
      throw fail("\(unknown) is not a mail setting (known: \(keys.sorted().joined(separator: ", ")))")
    }
    func string(_ key: String) throws(MailError) -> String? {
      guard let v = mail[key] else { return nil }
      guard let s = v as? String, !s.isEmpty else { throw fail("\(key) must be a non-empty string") }
      return s
    }
    guard let fromText = try string("from") else { throw fail("from is required") }
    guard let from = MailAddress.parse(fromText) else {
      throw fail("from '\(fromText)' is not an e-mail address")
    }
    var toTexts: [String] = []
    switch mail["to"] {
    case let s as String: toTexts = [s]
    case let list as [Any]:
      for item in list {
        guard let s = item as? String else { throw fail("to must be a list of e-mail addresses") }
        toTexts.append(s)
      }
    default: throw fail("to is required: a list of e-mail addresses")
    }
    guard !toTexts.isEmpty else { throw fail("to must name at least one recipient") }
    var to: [MailAddress] = []
    for text in toTexts {
      guard let address = MailAddress.parse(text) else { throw fail("to '\(text)' is not an e-mail address") }
      to.append(address)
    }
    guard let url = try string("smtp") else {
      throw fail("smtp is required (smtp://host:587 or smtps://host:465)")
    }
    let lower = url.lowercased()
    let implicitURL = lower.hasPrefix("smtps://")
    guard implicitURL || lower.hasPrefix("smtp://") else {
      throw fail("smtp '\(url)' must start with smtp:// (STARTTLS or clear) or smtps:// (implicit TLS)")
    }
    let authority = url.dropFirst(implicitURL ? 8 : 7).prefix { $0 != "/" }
    guard !authority.isEmpty else { throw fail("smtp '\(url)' names no host") }
    if authority.contains("@") {
      throw fail("smtp must not hold a user name or password; use username and passwordEnv or passwordFile")
    }
    var tls: TLS = implicitURL ? .implicit : .starttls
    if let text = try string("tls") {
      guard let t = TLS(rawValue: text) else { throw fail("tls must be starttls, implicit or none") }
      guard (t == .implicit) == implicitURL else {
        throw fail(
          t == .implicit
            ? "tls implicit needs an smtps:// URL"
            : "tls \(t.rawValue) needs an smtp:// URL (smtps:// is implicit TLS)")
      }
      tls = t
    }
    let username = try string("username")
    var password: PasswordSource?
    let env = try string("passwordEnv")
    let file = try string("passwordFile")
    if env != nil && file != nil { throw fail("passwordEnv and passwordFile: give one of them, not both") }
    if let env {
      let valid =
        env.utf8.allSatisfy {
          ($0 >= 0x30 && $0 <= 0x39) || ($0 | 0x20 >= 0x61 && $0 | 0x20 <= 0x7A) || $0 == 0x5F
        }
        && !(env.utf8.first.map { $0 >= 0x30 && $0 <= 0x39 } ?? true)
      guard valid else {
        throw fail("passwordEnv must be an environment variable name such as STORERECON_SMTP_PASSWORD")
      }
      password = .environment(env)
    }
    if let file {
      let resolved =
        file.hasPrefix("/") ? file : URL(fileURLWithPath: baseDirectory).appendingPathComponent(file).path
      password = .file(resolved)
    }
    if username != nil && password == nil { throw fail("username needs passwordEnv or passwordFile") }
    if username == nil && password != nil { throw fail("passwordEnv/passwordFile need a username") }
    var timeout = 60
    if let t = mail["timeoutSeconds"] {
      guard !isJSONBool(t), let n = t as? Int, n > 0, n <= 3600 else {
        throw fail("timeoutSeconds must be a whole number of seconds from 1 to 3600")
      }
      timeout = n
    }
    var prefix = "[storerecon]"
    if let p = mail["subjectPrefix"] {
      guard let s = p as? String, !s.contains("\n"), !s.contains("\r") else {
        throw fail("subjectPrefix must be a one-line string")
      }
      prefix = s
    }
    var caFile: String?
    if let path = try string("caFile") {
      guard tls != .none else { throw fail("caFile needs TLS (tls starttls or implicit)") }
      caFile =
        path.hasPrefix("/") ? path : URL(fileURLWithPath: baseDirectory).appendingPathComponent(path).path
    }
    return MailSettings(
      from: from, to: to, smtpURL: url, tls: tls, username: username, password: password,
      subjectPrefix: prefix, timeoutSeconds: timeout, caFile: caFile)
  }

  /// The AUTH password, read from its environment variable or file; `nil` without AUTH.
  package func resolvePassword(environment: [String: String]) throws(MailError) -> String? {
    switch password {
    case nil:
      return nil
    case .environment(let name):
      guard let value = environment[name], !value.isEmpty else {
        throw MailError(.config, "the SMTP password variable \(name) (mail.passwordEnv) is not set")
      }
      return value
    case .file(let path):
      if let problem = MailSettings.openPermissions(path) {
        throw MailError(
          .config,
          "the SMTP password file \(path) (mail.passwordFile) \(problem): refused, as libpq refuses such a "
            + "~/.pgpass; run chmod 600 \(path)")
      }
      guard let data = FileManager.default.contents(atPath: path) else {
        throw MailError(.config, "the SMTP password file \(path) (mail.passwordFile) cannot be read")
      }
      var text = String(decoding: data, as: UTF8.self)
      // One trailing line break ("\r\n" is a single Character in Swift).
      if text.hasSuffix("\r\n") || text.hasSuffix("\n") { text.removeLast() }
      guard !text.isEmpty else {
        throw MailError(.config, "the SMTP password file \(path) (mail.passwordFile) is empty")
      }
      return text
    }
  }
}

extension MailSettings {
  /// Why the file at `path` is open to others: `"is open to group or others (mode 0644)"` when group
  /// or others have any permission on it (the rule libpq applies to a password file); `nil` otherwise,
  /// also where the file does not exist (reading it then says so).
  package static func openPermissions(_ path: String) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
    else { return nil }
    let octal = String(mode & 0o7777, radix: 8)
    return
      "is open to group or others (mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal))"
  }
}

/// Whether a JSON value from `JSONSerialization` is a Boolean (which also casts to a number).
private func isJSONBool(_ value: Any) -> Bool {
  guard let number = value as? NSNumber else { return false }
  return String(cString: number.objCType) == "c"
}

import Foundation

/// The password file libpq reads (`passfile`, `PGPASSFILE`, `~/.pgpass`) and why libpq may have
/// ignored it: libpq skips a password file that group or others have any access to (docs/postgresql.md),
/// the rule `mail.passwordFile` follows too.
enum PostgresPasswordFile {
  /// `"is open to group or others (mode 0644)"` when group or others have any permission on the file at
  /// `path`; `nil` otherwise, also where there is no such file.
  static func openPermissions(_ path: String) -> String? {
    guard let attributes = try? FileManager.default.attributesOfItem(atPath: path),
      let mode = (attributes[.posixPermissions] as? NSNumber)?.uint16Value, mode & 0o077 != 0
    else { return nil }
    let octal = String(mode & 0o7777, radix: 8)
    return
      "is open to group or others (mode \(String(repeating: "0", count: max(0, 4 - octal.count)))\(octal))"
  }

  /// The sentence for a connection that needed a password when libpq ignored `path` for its mode; `nil`
  /// where the file is private or absent.
  static func ignored(_ path: String?, target: String) -> String? {
    guard let path, !path.isEmpty, let problem = openPermissions(path) else { return nil }
    return "\(target) asks for a password and libpq ignored the password file \(path): it \(problem); "
      + "run chmod 600 \(path)"
  }
}

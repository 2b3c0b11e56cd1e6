/// How ``DemoLine`` writes the milliseconds of a timestamp.
enum DemoFraction: Sendable {
  /// Always three digits (`.000`).
  case always
  /// Three digits, none when they are all 0 (`10:00:00Z`, `10:00:00.120Z`).
  case auto
  /// As few digits as the value needs (`.12`), none when 0: PostgreSQL's text form.
  case trimmed
}

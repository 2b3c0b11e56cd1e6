/// A small, pure word-wrapper for plain text (summary.txt, the e-mail's text part).
///
/// A line longer than the width is broken at spaces (a table row between its columns where it can);
/// each continuation line is indented two columns more than the line it continues (so it reads as
/// part of the same item). A word is never broken: a
/// single word longer than the width stays whole on a line of its own. Trailing spaces are dropped.
package enum TextWrap {
  /// The width of summary.txt's lines.
  package static let width = 78

  /// `text` with every line wrapped at `width` characters (lines end with LF).
  package static func wrap(_ text: String, width: Int = width) -> String {
    var out: [String] = []
    for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
      out += wrapLine(line, width: width)
    }
    return out.joined(separator: "\n")
  }

  /// One line, wrapped: its first part, then continuation lines indented two more columns.
  package static func wrapLine(_ line: Substring, width: Int = width) -> [String] {
    var chars = Array(line)
    while chars.last == " " { chars.removeLast() }
    guard chars.count > width else { return [String(chars)] }
    let leading = chars.prefix { $0 == " " }.count
    let hanging = [Character](repeating: " ", count: min(leading + 2, width / 2))
    var lines: [String] = []
    var rest = chars
    var indent = leading
    while rest.count > width {
      // A table row breaks between its columns (a gap of two spaces or more) where it can; else the
      // last space at or before the width that ends some text (not the indentation); else the first
      // space after it: a word longer than the line stays whole.
      func endsText(_ i: Int) -> Bool { rest[i] == " " && rest[i - 1] != " " }
      var cut: Int?
      var i = width
      while i > indent && cut == nil {
        if endsText(i) && i + 1 < rest.count && rest[i + 1] == " " { cut = i }
        i -= 1
      }
      i = width
      while i > indent && cut == nil {
        if endsText(i) { cut = i }
        i -= 1
      }
      if cut == nil {
        var j = width + 1
        while j < rest.count && !endsText(j) { j += 1 }
        if j < rest.count { cut = j }
      }
      guard let at = cut else { break }
      var head = Array(rest[..<at])
      while head.last == " " { head.removeLast() }
      lines.append(String(head))
      let tail = rest[at...].drop { $0 == " " }
      guard !tail.isEmpty else {
        rest = []
        break
      }
      rest = hanging + tail
      indent = hanging.count
    }
    if !rest.isEmpty { lines.append(String(rest)) }
    return lines
  }

  /// The first line of `text` with its continuation lines joined back (by one space): the unwrapped
  /// first item, such as summary.txt's status line.
  package static func firstItem(of text: String) -> String {
    var lines = text.split(separator: "\n", omittingEmptySubsequences: false)[...]
    guard let first = lines.popFirst() else { return "" }
    var item = String(first)
    let leading = first.prefix { $0 == " " }.count
    let hanging = String(repeating: " ", count: leading + 2)
    while let next = lines.first, next.hasPrefix(hanging), !next.dropFirst(hanging.count).hasPrefix(" ") {
      item += " " + next.dropFirst(hanging.count)
      lines.removeFirst()
    }
    return item
  }
}

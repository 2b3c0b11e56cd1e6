import Foundation

/// A written .xlsx opened the way a test can check it: entries read with `unzip -p`, the sheet, style and
/// shared-string XML picked apart with regular expressions.
package struct XLSXPackage {
  /// One `<c>` element of a sheet.
  package struct Cell {
    package var ref: String
    /// Index into `cellXfs` (0 when the cell has no `s`).
    package var style: Int
    /// `s` (shared string), `inlineStr`, `str`, or `nil` for a number.
    package var type: String?
    /// The `<v>` text.
    package var value: String?
    /// The `<is><t>` text of an inline string.
    package var inline: String?
  }

  /// One worksheet's XML and cells.
  package struct Sheet {
    package var xml: String
    package var cells: [String: Cell]
    /// Rows frozen at the top (`<pane ySplit="N" … state="frozen"/>`), 0 when none.
    package var frozenRows: Int
    /// The `<autoFilter ref>`, if any.
    package var autofilter: String?
    /// Number of `<row>` elements.
    package var rowCount: Int
  }

  /// `styles.xml`: number formats and fonts by `cellXfs` index.
  package struct Styles {
    package var numberFormats: [Int: String]
    package var xfNumberFormat: [Int]
    package var xfBold: [Bool]

    /// The format code of a cell style (`General` for built-in 0).
    package func formatCode(style: Int) -> String? {
      guard style < xfNumberFormat.count else { return nil }
      let id = xfNumberFormat[style]
      if let custom = numberFormats[id] { return custom }
      let builtIn: [Int: String] = [
        0: "General", 1: "0", 2: "0.00", 3: "#,##0", 4: "#,##0.00", 14: "m/d/yyyy",
      ]
      return builtIn[id]
    }

    /// Whether a cell style is bold.
    package func isBold(style: Int) -> Bool { style < xfBold.count && xfBold[style] }
  }

  package let path: String

  package init(_ path: String) { self.path = path }

  /// The text of one zip entry.
  package func entry(_ name: String) throws -> String {
    String(decoding: try Tool.run("/usr/bin/env", ["unzip", "-p", path, name], input: []), as: UTF8.self)
  }

  /// Names of every zip entry.
  package func entryNames() throws -> [String] {
    let text = String(
      decoding: try Tool.run("/usr/bin/env", ["unzip", "-Z1", path], input: []), as: UTF8.self)
    return text.split(separator: "\n").map(String.init)
  }

  /// The first chart part (`xl/charts/chart*.xml`) whose XML contains `text`, or `nil`.
  package static func chart(_ package: XLSXPackage, containing text: String) throws -> String? {
    for name in try package.entryNames() where name.hasPrefix("xl/charts/chart") {
      let xml = try package.entry(name)
      if xml.contains(text) { return xml }
    }
    return nil
  }

  /// Sheet names in workbook order.
  package func sheetNames() throws -> [String] {
    try Self.matches(#"<sheet name="([^"]*)""#, in: entry("xl/workbook.xml")).map { Self.unescape($0[1]) }
  }

  /// The worksheet called `name`.
  package func sheet(_ name: String) throws -> Sheet {
    let workbook = try entry("xl/workbook.xml")
    let rels = try entry("xl/_rels/workbook.xml.rels")
    var target: String?
    for m in Self.matches(#"<sheet name="([^"]*)" sheetId="\d+" r:id="([^"]+)"/>"#, in: workbook)
    where Self.unescape(m[1]) == name {
      target =
        Self.matches(#"<Relationship Id="\#(m[2])" Type="[^"]*" Target="([^"]+)"/>"#, in: rels).first?[1]
    }
    guard let target else { throw Tool.Failed(description: "no sheet '\(name)' in \(path)") }
    let xml = try entry("xl/" + target)
    var cells: [String: Cell] = [:]
    for m in Self.matches(#"<c r="([A-Z]+[0-9]+)"([^>]*?)(?:/>|>(.*?)</c>)"#, in: xml) {
      let attributes = m[2]
      let inner = m[3]
      let style = Self.matches(#"s="(\d+)""#, in: attributes).first.map { Int($0[1]) ?? 0 } ?? 0
      let type = Self.matches(#"t="([^"]+)""#, in: attributes).first?[1]
      let value = Self.matches(#"<v>(.*?)</v>"#, in: inner).first.map { Self.unescape($0[1]) }
      let inline = Self.matches(#"<is><t[^>]*>(.*?)</t></is>"#, in: inner).first.map { Self.unescape($0[1]) }
      cells[m[1]] = Cell(ref: m[1], style: style, type: type, value: value, inline: inline)
    }
    let frozen =
      Self.matches(#"<pane ySplit="(\d+)"[^>]*state="frozen""#, in: xml).first.map { Int($0[1]) ?? 0 } ?? 0
    let filter = Self.matches(#"<autoFilter ref="([^"]+)""#, in: xml).first?[1]
    let rows = Self.matches(#"<row "#, in: xml).count
    return Sheet(xml: xml, cells: cells, frozenRows: frozen, autofilter: filter, rowCount: rows)
  }

  /// `xl/styles.xml`.
  package func styles() throws -> Styles {
    let xml = try entry("xl/styles.xml")
    var formats: [Int: String] = [:]
    for m in Self.matches(#"<numFmt numFmtId="(\d+)" formatCode="([^"]*)"/>"#, in: xml) {
      formats[Int(m[1]) ?? -1] = Self.unescape(m[2])
    }
    let fontsXML = Self.matches(#"<fonts[^>]*>(.*?)</fonts>"#, in: xml).first?[1] ?? ""
    let boldFonts = Self.matches(#"<font>(.*?)</font>"#, in: fontsXML).map { $0[1].contains("<b/>") }
    let xfsXML = Self.matches(#"<cellXfs[^>]*>(.*?)</cellXfs>"#, in: xml).first?[1] ?? ""
    var numberFormat: [Int] = []
    var bold: [Bool] = []
    for m in Self.matches(#"<xf numFmtId="(\d+)" fontId="(\d+)""#, in: xfsXML) {
      numberFormat.append(Int(m[1]) ?? 0)
      let font = Int(m[2]) ?? 0
      bold.append(font < boldFonts.count && boldFonts[font])
    }
    return Styles(numberFormats: formats, xfNumberFormat: numberFormat, xfBold: bold)
  }

  /// `xl/sharedStrings.xml` in index order (empty when the workbook has none).
  package func sharedStrings() throws -> [String] {
    guard try entryNames().contains("xl/sharedStrings.xml") else { return [] }
    return try Self.matches(#"<si><t[^>]*>(.*?)</t></si>"#, in: entry("xl/sharedStrings.xml")).map {
      Self.unescape($0[1])
    }
  }

  /// Every row of `sheet` as texts (a string cell's text, any other cell's value), trailing blanks dropped.
  package static func rows(_ sheet: Sheet, strings: [String]) throws -> [[String]] {
    var byRow: [Int: [(Int, String)]] = [:]
    for (ref, cell) in sheet.cells {
      let letters = ref.prefix { $0.isLetter }
      guard let row = Int(ref.dropFirst(letters.count)), let letter = letters.unicodeScalars.first else {
        continue
      }
      let column = Int(letter.value) - 65
      byRow[row, default: []].append((column, XLSXPackage.text(cell, strings: strings) ?? cell.value ?? ""))
    }
    return byRow.keys.sorted().map { row in
      let cells = byRow[row] ?? []
      let width = (cells.map(\.0).max() ?? -1) + 1
      var out = Array(repeating: "", count: width)
      for (column, value) in cells { out[column] = value }
      return out
    }
  }

  /// The text of a string cell (shared or inline), `nil` for a number or blank.
  package static func text(_ cell: Cell?, strings: [String]) -> String? {
    guard let cell else { return nil }
    switch cell.type {
    case "s": return cell.value.flatMap { Int($0) }.flatMap { $0 < strings.count ? strings[$0] : nil }
    case "inlineStr": return cell.inline
    case "str": return cell.value
    default: return nil
    }
  }

  package static func matches(_ pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern, options: [.dotMatchesLineSeparators]) else {
      return []
    }
    let ns = text as NSString
    return regex.matches(in: text, range: NSRange(location: 0, length: ns.length)).map { match in
      (0..<match.numberOfRanges).map { i in
        let range = match.range(at: i)
        return range.location == NSNotFound ? "" : ns.substring(with: range)
      }
    }
  }

  package static func unescape(_ text: String) -> String {
    text.replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// A small table of already formatted cells, rendered as aligned plain text or as an HTML table.
package struct SummaryTable: Sendable, Equatable {
  /// Column headers.
  package var headers: [String]
  /// Indices of columns aligned right (numbers, money).
  package var rightAligned: Set<Int>
  /// Rows of cells; a row shorter than the headers is padded with empty cells.
  package var rows: [[String]]
  /// Cells shown on a coloured background in HTML, by row and column (`[row, column]` → CSS colour);
  /// the text has no colour, so a tinted cell's text must say the same on its own.
  package var tints: [[Int]: String] = [:]

  /// Creates a table.
  package init(headers: [String], rightAligned: Set<Int> = [], rows: [[String]] = []) {
    self.headers = headers
    self.rightAligned = rightAligned
    self.rows = rows
  }

  /// Aligned columns separated by two spaces, each line prefixed with `indent`; no trailing spaces.
  package func text(indent: String = "  ") -> [String] {
    let all = [headers] + rows
    var widths = Array(repeating: 0, count: headers.count)
    for row in all {
      for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
    }
    return all.map { row in
      var cells: [String] = []
      for i in 0..<widths.count {
        let cell = i < row.count ? row[i] : ""
        let pad = String(repeating: " ", count: widths[i] - cell.count)
        cells.append(rightAligned.contains(i) ? pad + cell : cell + pad)
      }
      var line = indent + cells.joined(separator: "  ")
      while line.last == " " { line.removeLast() }
      return line
    }
  }

  /// Tables with more columns than this render as cards in HTML (see ``html()``).
  package static let widestHTMLTable = 4

  /// HTML with inline styles only (mail clients drop style sheets); every cell escaped. Readable at any
  /// width without a style sheet: up to ``widestHTMLTable`` columns a full-width table whose cells wrap;
  /// wider, one card per row (a two-column table of header and value) — cards sit side by side on a
  /// wide screen and stack on a phone (400 px), so no column is ever cut off.
  package func html() -> String {
    headers.count > Self.widestHTMLTable ? cardsHTML() : tableHTML()
  }

  func tableHTML() -> String {
    let border = "border:1px solid #d0d7de;padding:4px 8px;"
    var out =
      "<table style=\"border-collapse:collapse;margin:4px 0 12px 0;font-size:13px;max-width:100%;\">\n<tr>"
    for (i, header) in headers.enumerated() {
      let align = rightAligned.contains(i) ? "right" : "left"
      out += "<th style=\"\(border)background:#f2f4f7;text-align:\(align);\">\(HTMLText.escape(header))</th>"
    }
    out += "</tr>\n"
    for (r, row) in rows.enumerated() {
      out += "<tr>"
      for i in 0..<headers.count {
        let cell = i < row.count ? row[i] : ""
        let tint = tints[[r, i]].map { "background:\($0);font-weight:bold;" } ?? ""
        out += "<td style=\"\(border)\(cellAlignment(i, cell))\(tint)\">\(Self.breakable(cell))</td>"
      }
      out += "</tr>\n"
    }
    return out + "</table>\n"
  }

  /// One card per row: a bordered box (at most 340 px wide, side by side while they fit) holding the
  /// row's header/value pairs; the first column is the card's title.
  func cardsHTML() -> String {
    let card =
      "display:inline-block;vertical-align:top;box-sizing:border-box;width:100%;max-width:340px;"
      + "margin:0 8px 8px 0;border:1px solid #d0d7de;border-radius:4px;"
    let pad = "padding:2px 8px;"
    var out = "<div style=\"margin:4px 0 12px 0;font-size:13px;\">\n"
    for (r, row) in rows.enumerated() {
      out += "<div style=\"\(card)\"><table style=\"border-collapse:collapse;width:100%;\">"
      let title = row.first ?? ""
      out +=
        "<tr><th colspan=\"2\" style=\"\(pad)background:#f2f4f7;text-align:left;\">"
        + "\(HTMLText.escape(headers[0])): \(HTMLText.escape(title))</th></tr>"
      for i in 1..<headers.count {
        let cell = i < row.count ? row[i] : ""
        out +=
          "<tr><td style=\"\(pad)color:#59636e;text-align:left;\">\(HTMLText.escape(headers[i]))</td>"
          + "<td style=\"\(pad)\(cellAlignment(i, cell))\(rightAligned.contains(i) ? "" : "overflow-wrap:anywhere;")"
          + "\(tints[[r, i]].map { "background:\($0);font-weight:bold;" } ?? "")\">"
          + "\(Self.breakable(cell))</td></tr>"
      }
      out += "</table></div>\n"
    }
    return out + "</div>\n"
  }

  /// `cell` escaped, with a line-break opportunity (`<wbr>`) after each `_` and `/`: on a phone
  /// `free_entitlement` wraps as `free_` / `entitlement`, never mid-word; an amount and its code stay
  /// together.
  static func breakable(_ cell: String) -> String {
    var out = ""
    let chars = Array(HTMLText.escape(cell))
    for (i, c) in chars.enumerated() {
      // An amount stays with its currency code: `1,400 JPY` never breaks between the two.
      if c == " ", i > 0, chars[i - 1].isNumber, i + 1 < chars.count, chars[i + 1].isUppercase {
        out += "&nbsp;"
        continue
      }
      out.append(c)
      if c == "_" || (c == "/" && i > 0 && chars[i - 1].isLetter) { out += "<wbr>" }
    }
    return out
  }

  /// Left for text, right for numbers.
  func cellAlignment(_ column: Int, _ cell: String) -> String {
    rightAligned.contains(column) ? "text-align:right;" : "text-align:left;"
  }
}

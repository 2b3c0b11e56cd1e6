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
  /// The columns the plain text shows, in order (`nil`: all): a wide table keeps what a 78-column
  /// line can hold, the HTML shows every column.
  package var textColumns: [Int]?

  /// Creates a table.
  package init(headers: [String], rightAligned: Set<Int> = [], rows: [[String]] = []) {
    self.headers = headers
    self.rightAligned = rightAligned
    self.rows = rows
  }

  /// Aligned columns separated by two spaces, each line prefixed with `indent`; no trailing spaces.
  package func text(indent: String = "  ") -> [String] {
    if let columns = textColumns {
      var narrow = SummaryTable(
        headers: columns.map { headers[$0] },
        rightAligned: Set(columns.indices.filter { rightAligned.contains(columns[$0]) }),
        rows: rows.map { row in columns.map { $0 < row.count ? row[$0] : "" } })
      narrow.textColumns = nil
      return narrow.text(indent: indent)
    }
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

  /// Tables with more columns than this turn into cards on a narrow screen (see ``html()``).
  package static let widestHTMLTable = 4

  /// A cell up to this many characters stays on one line (`white-space:nowrap`): a row of short cells is
  /// one line high on a desktop; longer text (a detail, a list of amounts) wraps.
  static let longestUnbrokenCell = 40

  /// How a cell keeps its row one line high on a desktop: a short cell does not wrap; a long identifier
  /// (one word longer than ``longestUnbrokenCell``: a chain key, a purchase token) is shown cut with `…`
  /// at 18 em (the whole text stays in the page, to copy or search); longer text with spaces (a detail,
  /// a list of amounts) wraps.
  static func fit(_ cell: String) -> String {
    if cell.count <= longestUnbrokenCell { return "white-space:nowrap;" }
    if !cell.contains(" ") {
      return "max-width:18em;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;"
    }
    return ""
  }

  /// The class of a table that turns into cards on a narrow screen, and of its header row.
  static let cardsClass = "sr-cards"
  static let headClass = "sr-head"
  /// The class of a section's floating picture, which a phone shows full width above the section's text.
  static let floatClass = "sr-float"

  /// The summary's one style sheet: below 601 px (a phone) a table of class ``cardsClass`` shows one
  /// card per row — the header row hidden, each cell a line led by its column's name (`data-label`).
  /// It also lets a phone wrap every cell, and shows a section's floating picture full width. Everything
  /// else is inline; a mail client that drops the style sheet shows the plain table (which mail apps
  /// scale or scroll on a phone).
  package static let narrowScreenCSS = """
    @media only screen and (max-width:600px){
    td,th{white-space:normal!important;overflow-wrap:break-word;}
    table.sr-cards,table.sr-cards tbody,table.sr-cards tr,table.sr-cards td{display:block!important;width:auto!important;}
    table.sr-cards tr.sr-head{display:none!important;}
    table.sr-cards tr{margin:0 0 8px 0;border:1px solid #d0d7de;border-radius:4px;}
    table.sr-cards td{border:0!important;border-top:1px solid #eaeef2!important;text-align:right!important;}
    table.sr-cards td:first-child{border-top:0!important;background:#f2f4f7;font-weight:bold;text-align:left!important;}
    table.sr-cards td::before{content:attr(data-label);float:left;padding-right:8px;color:#59636e;font-weight:normal;}
    div.sr-float{float:none!important;width:auto!important;margin:0 0 8px 0!important;}
    }
    """

  /// HTML with inline styles (every cell escaped): a real table at every width. A table wider than
  /// ``widestHTMLTable`` columns carries the class ``cardsClass`` and each cell its column's name, so
  /// the page's ``narrowScreenCSS`` shows it as one card per row on a phone.
  package func html() -> String {
    let cards = headers.count > Self.widestHTMLTable
    let border = "border:1px solid #d0d7de;padding:1px 6px;line-height:1.25;"
    var out = "<table"
    if cards { out += " class=\"\(Self.cardsClass)\"" }
    out += " style=\"border-collapse:collapse;margin:4px 0 8px 0;font-size:13px;max-width:100%;\">\n"
    out += cards ? "<tr class=\"\(Self.headClass)\">" : "<tr>"
    for (i, header) in headers.enumerated() {
      let align = rightAligned.contains(i) ? "right" : "left"
      out +=
        "<th style=\"\(border)background:#f2f4f7;text-align:\(align);white-space:nowrap;\">"
        + "\(HTMLText.escape(header))</th>"
    }
    out += "</tr>\n"
    for (r, row) in rows.enumerated() {
      out += "<tr>"
      for i in 0..<headers.count {
        let cell = i < row.count ? row[i] : ""
        let label = cards ? " data-label=\"\(HTMLText.escape(headers[i]))\"" : ""
        let tint = tints[[r, i]].map { "background:\($0);font-weight:bold;" } ?? ""
        out +=
          "<td\(label) style=\"\(border)\(cellAlignment(i, cell))\(Self.fit(cell))\(tint)\">\(Self.breakable(cell, wrapping: !cards || Self.fit(cell).isEmpty))</td>"
      }
      out += "</tr>\n"
    }
    return out + "</table>\n"
  }

  /// `cell` escaped, with a line-break opportunity (`<wbr>`) after each `_` and `/`: on a phone
  /// `free_entitlement` wraps as `free_` / `entitlement`, never mid-word; an amount and its code stay
  /// together.
  ///
  /// `wrapping: false` leaves the `<wbr>` out: Chromium breaks at `<wbr>` even in a `nowrap` cell. A
  /// wide table's short cells and identifiers get none, so they stay on one line on a desktop (on a
  /// phone the table is cards); a table of up to 4 columns keeps them, since it stays a table on a
  /// phone and must fit there.
  static func breakable(_ cell: String, wrapping: Bool = true) -> String {
    var out = ""
    let chars = Array(HTMLText.escape(cell))
    for (i, c) in chars.enumerated() {
      // An amount stays with its currency code: `1,400 JPY` never breaks between the two.
      if c == " ", i > 0, chars[i - 1].isNumber, i + 1 < chars.count, chars[i + 1].isUppercase {
        out += "&nbsp;"
        continue
      }
      out.append(c)
      if wrapping, c == "_" || (c == "/" && i > 0 && chars[i - 1].isLetter) { out += "<wbr>" }
    }
    return out
  }

  /// Left for text, right for numbers.
  func cellAlignment(_ column: Int, _ cell: String) -> String {
    rightAligned.contains(column) ? "text-align:right;" : "text-align:left;"
  }
}

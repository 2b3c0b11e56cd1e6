/// A small table of already formatted cells, rendered as aligned plain text or as an HTML table.
package struct SummaryTable: Sendable, Equatable {
  /// Column headers.
  package var headers: [String]
  /// Indices of columns aligned right (numbers, money).
  package var rightAligned: Set<Int>
  /// Rows of cells; a row shorter than the headers is padded with empty cells.
  package var rows: [[String]]

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

  /// An HTML table with inline styles only (mail clients drop style sheets); every cell escaped.
  package func html() -> String {
    let border = "border:1px solid #d0d7de;padding:4px 8px;"
    var out = "<table style=\"border-collapse:collapse;margin:4px 0 12px 0;font-size:13px;\">\n<tr>"
    for (i, header) in headers.enumerated() {
      let align = rightAligned.contains(i) ? "right" : "left"
      out += "<th style=\"\(border)background:#f2f4f7;text-align:\(align);\">\(HTMLText.escape(header))</th>"
    }
    out += "</tr>\n"
    for row in rows {
      out += "<tr>"
      for i in 0..<headers.count {
        let cell = i < row.count ? row[i] : ""
        let align = rightAligned.contains(i) ? "text-align:right;white-space:nowrap;" : "text-align:left;"
        out += "<td style=\"\(border)\(align)\">\(HTMLText.escape(cell))</td>"
      }
      out += "</tr>\n"
    }
    return out + "</table>\n"
  }
}

extension ReportSummary {
  /// `summary.txt`: the headline, a title line, then each section as plain aligned text (UTF-8, LF),
  /// every line wrapped at ``TextWrap/width`` characters as a last pass (``TextWrap``; the headline's
  /// continuation lines are indented, ``TextWrap/firstItem(of:)`` joins them back).
  package var text: String { TextWrap.wrap(unwrappedText) }

  /// `summary.txt` before wrapping: one line per paragraph, table row and heading.
  package var unwrappedText: String {
    var lines = [headline, titleLine, ""]
    for section in sections {
      lines.append(section.title)
      lines.append(String(repeating: "-", count: section.title.count))
      for block in section.blocks {
        switch block {
        case .paragraph(let text): lines.append(text)
        case .subheading(let text): lines.append("\(text):")
        case .table(let table): lines += table.text()
        case .folded(let label, let table):
          lines.append("\(label):")
          lines += table.text()
        case .picture: break
        case .nextSteps(let steps):
          lines.append("What to do:")
          for step in steps { lines += step.text() }
        }
      }
      lines.append("")
    }
    lines.append(reportsLine)
    return lines.joined(separator: "\n") + "\n"
  }

  /// The headline up to its first `; ` (what the e-mail subject says): the HTML's status box, whose
  /// details follow in the Status section.
  var statusLine: String { headline.components(separatedBy: "; ").first ?? headline }

  /// The last line: the report files beside the summary (the tie-out's where there is one).
  var reportsLine: String {
    let tieOut =
      facts.tieOut.cells.isEmpty && facts.tieOut.orders.isEmpty ? "" : "tieout.csv, tieout_orders.csv, "
    return "Reports: findings.csv, revenue.csv, counts.csv, grants.csv, \(tieOut)rejects/, manifest.json."
  }

  /// `storerecon 0.1.0 — reconciliation for 2026-11-29 (UTC), as of 2026-11-30T00:00:00.000Z`.
  package var titleLine: String {
    "storerecon \(facts.version) — reconciliation for \(facts.date) (\(facts.timeZone)), as of \(facts.asOf)"
  }

  /// The status box's background and border: red for ALERT, amber for INCOMPLETE, orange for
  /// ATTENTION, green for OK.
  static func colours(_ worst: RunStatus.Word?) -> (String, String) {
    switch worst {
    case .alert: ("#fde2e1", "#d1242f")
    case .incomplete: ("#fff4ce", "#bf8700")
    case .attention: ("#fff1e5", "#bc4c00")
    case nil: ("#e6f4ea", "#1a7f37")
    }
  }

  /// `summary.html`: one self-contained page for mail clients — real tables, inline styles, inline SVG
  /// pictures, no image files, no scripts, no external resources; every text escaped. The one style
  /// sheet (``SummaryTable/narrowScreenCSS``) only turns wide tables into cards on a phone.
  package var html: String {
    let (background, border) = Self.colours(runStatus.worst)
    var out = """
      <!DOCTYPE html>
      <html lang="en">
      <head>
      <meta charset="utf-8">
      <meta name="viewport" content="width=device-width, initial-scale=1">
      <title>\(HTMLText.escape(subject(prefix: "storerecon")))</title>
      <style>
      \(SummaryTable.narrowScreenCSS)
      </style>
      </head>
      <body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.35;color:#1f2328;background:#ffffff;">

      """
    out +=
      "<p style=\"margin:0 0 8px 0;padding:10px 12px;background:\(background);border-left:4px solid \(border);font-weight:bold;\">\(HTMLText.escape(statusLine))</p>\n"
    out += "<p style=\"margin:0 0 16px 0;color:#59636e;\">\(HTMLText.escape(titleLine))</p>\n"
    for section in sections {
      out +=
        "<h2 style=\"clear:both;margin:12px 0 4px 0;font-size:16px;border-bottom:1px solid #d0d7de;padding-bottom:2px;\">\(HTMLText.escape(section.title))</h2>\n"
      // A section's one picture floats right at its start, beside its first paragraphs and tables (at
      // most 40 % of the width); several pictures stay in the flow, each by its own table.
      var blocks = section.blocks
      if blocks.count(where: \.isPicture) == 1, let picture = blocks.firstIndex(where: \.isPicture) {
        out +=
          "<div class=\"\(SummaryTable.floatClass)\" style=\"float:right;width:40%;max-width:600px;margin:0 0 8px 16px;\">\n"
        out += Self.html(blocks.remove(at: picture), border: border)
        out += "</div>\n"
      }
      var index = 0
      while index < blocks.count {
        // Tables and pictures that follow each other flow side by side while they fit the width, and
        // stack on a narrow screen (inline blocks: no style sheet needed).
        var run = 0
        while index + run < blocks.count, blocks[index + run].isFlowing { run += 1 }
        if run > 1 {
          for block in blocks[index..<(index + run)] {
            // A picture is as wide as it may grow (its SVG is 100 % wide, at most 600 px).
            let width = block.isPicture ? "width:600px;" : ""
            out +=
              "<div style=\"display:inline-block;vertical-align:top;\(width)max-width:100%;margin-right:16px;\">\n"
            out += Self.html(block, border: border)
            out += "</div>\n"
          }
          index += run
        } else {
          out += Self.html(blocks[index], border: border)
          index += 1
        }
      }
    }
    out +=
      "<p style=\"clear:both;margin:16px 0 0 0;color:#59636e;font-size:12px;\">\(HTMLText.escape(reportsLine))</p>\n"
    return out + "</body>\n</html>\n"
  }

  /// One block of a section as HTML; `border` is the status colour (for ALERT/INCOMPLETE/… lines).
  static func html(_ block: SummarySection.Block, border: String) -> String {
    switch block {
    case .paragraph(let text):
      let strong = ["ALERT ", "INCOMPLETE ", "ATTENTION ", "FAILED "].contains { text.hasPrefix($0) }
      let style = strong ? "margin:3px 0;font-weight:bold;color:\(border);" : "margin:3px 0;"
      return "<p style=\"\(style)\">\(HTMLText.escape(text))</p>\n"
    case .subheading(let text):
      return "<h3 style=\"margin:8px 0 4px 0;font-size:14px;\">\(HTMLText.escape(text))</h3>\n"
    case .table(let table):
      return table.html()
    case .picture(let svg):
      return svg
    case .nextSteps(let steps):
      return SummaryStep.html(steps)
    case .folded(let label, let table):
      return "<details style=\"margin:6px 0 8px 0;\">"
        + "<summary style=\"font-weight:bold;font-size:14px;cursor:pointer;\">\(HTMLText.escape(label))</summary>\n"
        + table.html() + "</details>\n"
    }
  }
}

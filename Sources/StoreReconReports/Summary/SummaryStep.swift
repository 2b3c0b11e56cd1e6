package import StoreReconCore

/// One reason's or status's next step as the summary shows it: what it is about, what to do and the
/// link to the docs (docs/reports.md#what-to-do-and-docs).
package struct SummaryStep: Sendable, Equatable {
  /// The reason or status (`orphaned_charge/unclaimed`, `tieout/report_more`).
  package var label: String
  /// The table's sentence.
  package var whatToDo: String
  /// The docs base followed by the anchor.
  package var link: String

  /// Creates a step line.
  package init(label: String, whatToDo: String, link: String) {
    self.label = label
    self.whatToDo = whatToDo
    self.link = link
  }

  /// The line of `step` with its link from `docsBase`.
  package init(_ step: NextStep, docsBase: String) {
    self.init(label: step.subject.name, whatToDo: step.whatToDo, link: step.link(base: docsBase))
  }

  /// Whether the link is a web address a mail client can open (a relative `docs/…` is shown as text).
  package var isWebLink: Bool { link.hasPrefix("https://") || link.hasPrefix("http://") }

  /// The text lines: the label and the link, then the sentence indented below it.
  package func text(indent: String = "  ") -> [String] {
    ["\(indent)\(label) — \(link)", "\(indent)  \(whatToDo)"]
  }

  /// The HTML: one row of the steps' table — the label and the link in the first cell (kept on one
  /// line), the sentence beside it; escaped.
  package func html() -> String {
    let link =
      isWebLink
      ? "<a href=\"\(HTMLText.escape(self.link))\" style=\"color:#0969da;\">docs</a>"
      : "<span style=\"color:#59636e;\">\(HTMLText.escape(self.link))</span>"
    return
      "<tr><td style=\"padding:1px 12px 1px 0;vertical-align:top;white-space:nowrap;\"><b>\(HTMLText.escape(label))</b> · \(link)</td>"
      + "<td style=\"padding:1px 0;vertical-align:top;color:#3d444d;\">\(HTMLText.escape(whatToDo))</td></tr>\n"
  }

  /// The steps as one compact table (a row each) under a heading that opens and closes it: folded by
  /// default where the mail client folds `<details>` (the page stays short), open where it does not.
  package static func html(_ steps: [SummaryStep]) -> String {
    let noun = steps.count == 1 ? "1 reason" : "\(steps.count) reasons"
    return "<details style=\"margin:6px 0 8px 0;font-size:13px;\">"
      + "<summary style=\"font-weight:bold;cursor:pointer;\">What to do (\(noun))</summary>\n"
      + "<table style=\"border-collapse:collapse;margin:2px 0 0 0;font-size:13px;line-height:1.3;\">\n"
      + steps.map { $0.html() }.joined() + "</table></details>\n"
  }
}

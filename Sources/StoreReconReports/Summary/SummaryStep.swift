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

  /// The HTML: the label (and the link) on a line, the sentence in a short line under it; escaped.
  package func html() -> String {
    let link =
      isWebLink
      ? "<a href=\"\(HTMLText.escape(self.link))\" style=\"color:#0969da;\">docs</a>"
      : "<span style=\"color:#59636e;\">\(HTMLText.escape(self.link))</span>"
    return
      "<p style=\"margin:6px 0 0 0;font-size:13px;\"><b>\(HTMLText.escape(label))</b> · \(link)</p>\n"
      + "<p style=\"margin:0 0 4px 16px;font-size:13px;color:#59636e;\">\(HTMLText.escape(whatToDo))</p>\n"
  }
}

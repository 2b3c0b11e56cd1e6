/// One titled part of the summary: paragraphs and tables, in order.
package struct SummarySection: Sendable, Equatable {
  /// A piece of a section.
  package enum Block: Sendable, Equatable {
    /// A sentence or short paragraph.
    case paragraph(String)
    /// A heading inside the section (a currency, an experiment).
    case subheading(String)
    /// A table.
    case table(SummaryTable)
    /// An inline SVG picture (``SVGChart``), already escaped; the HTML shows it, the text leaves it out
    /// (its figures are in the tables beside it).
    case picture(String)
    /// What to do about each reason or status listed above (``SummaryStep``): an indented line in the
    /// text, a short line with a link in the HTML.
    case nextSteps([SummaryStep])
    /// A secondary table under a line that opens and closes it: folded by default in the HTML where the
    /// mail client folds `<details>` (the page stays short), a plain table in the text.
    case folded(String, SummaryTable)
  }

  /// The section's title.
  package var title: String
  /// Its content.
  package var blocks: [Block]

  /// Creates a section.
  package init(title: String, blocks: [Block]) {
    self.title = title
    self.blocks = blocks
  }
}

extension SummarySection.Block {
  /// Whether the block is a table or a picture: those that follow each other sit side by side in the
  /// HTML while they fit.
  var isFlowing: Bool {
    switch self {
    case .table, .picture: true
    case .paragraph, .subheading, .nextSteps, .folded: false
    }
  }

  /// Whether the block is a picture.
  var isPicture: Bool {
    if case .picture = self { return true }
    return false
  }
}

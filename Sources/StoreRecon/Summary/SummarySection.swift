/// One titled part of the summary: paragraphs and tables, in order.
public struct SummarySection: Sendable, Equatable {
  /// A piece of a section.
  public enum Block: Sendable, Equatable {
    /// A sentence or short paragraph.
    case paragraph(String)
    /// A heading inside the section (a currency, an experiment).
    case subheading(String)
    /// A table.
    case table(SummaryTable)
  }

  /// The section's title.
  public var title: String
  /// Its content.
  public var blocks: [Block]

  /// Creates a section.
  public init(title: String, blocks: [Block]) {
    self.title = title
    self.blocks = blocks
  }
}

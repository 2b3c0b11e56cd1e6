/// Document properties of a workbook. They are pinned, not taken from the clock, so that the same
/// content gives byte-identical files.
public struct XLSXProperties: Sendable, Equatable {
  /// The document title.
  public var title: String
  /// The author (also written as "last modified by").
  public var author: String
  /// Written as both the created and the modified date (midnight UTC of this date).
  public var created: CivilDate

  /// Creates properties.
  public init(title: String, author: String = "storerecon", created: CivilDate) {
    self.title = title
    self.author = author
    self.created = created
  }
}

package import StoreReconCore
import StoreReconReports

/// Document properties of a workbook. They are pinned, not taken from the clock, so that the same
/// content gives byte-identical files.
package struct XLSXProperties: Sendable, Equatable {
  /// The document title.
  package var title: String
  /// The author (also written as "last modified by").
  package var author: String
  /// Written as both the created and the modified date (midnight UTC of this date).
  package var created: CivilDate

  /// Creates properties.
  package init(title: String, author: String = "storerecon", created: CivilDate) {
    self.title = title
    self.author = author
    self.created = created
  }
}

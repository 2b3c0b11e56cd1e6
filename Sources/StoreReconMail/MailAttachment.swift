/// A file attached to the e-mail.
package struct MailAttachment: Sendable, Equatable {
  /// The file name the recipient sees (`reconciliation.xlsx`).
  package var filename: String
  /// The MIME type.
  package var contentType: String
  /// The file's bytes.
  package var bytes: [UInt8]

  /// The MIME type of an Excel workbook (`.xlsx`).
  package static let xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

  /// Creates an attachment.
  package init(filename: String, contentType: String, bytes: [UInt8]) {
    self.filename = filename
    self.contentType = contentType
    self.bytes = bytes
  }
}

/// A file attached to the e-mail.
public struct MailAttachment: Sendable, Equatable {
  /// The file name the recipient sees (`reconciliation.xlsx`).
  public var filename: String
  /// The MIME type.
  public var contentType: String
  /// The file's bytes.
  public var bytes: [UInt8]

  /// The MIME type of an Excel workbook (`.xlsx`).
  public static let xlsxType = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"

  /// Creates an attachment.
  public init(filename: String, contentType: String, bytes: [UInt8]) {
    self.filename = filename
    self.contentType = contentType
    self.bytes = bytes
  }
}

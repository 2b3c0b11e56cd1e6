// Safety: a record's buffers point into the reader's storage and are valid only until the reader's next call;
// `field(_:)` returns an empty buffer for an index outside the record, and the splitter writes bounds in
// pairs inside `storage`.

/// One CSV record as the reader split it: its fields as byte slices, its line and its raw text.
///
/// A record points into the reader's buffers: it is valid only until the reader's next call.
/// Copy out what you keep (``string(_:)``).
public struct CSVRecord {
  /// The 1-based physical line the record starts on.
  package let line: Int
  /// Why the record could not be split (an unclosed quote, text after a closing quote) or is not text
  /// (invalid UTF-8, a NUL byte: ``UTF8Validation``); `nil` when fine.
  package let malformed: String?
  @usableFromInline let storage: UnsafeBufferPointer<UInt8>
  @usableFromInline let bounds: UnsafeBufferPointer<Int>
  /// The record's bytes as read (all its lines, joined by `\n`).
  package let raw: UnsafeBufferPointer<UInt8>

  init(
    line: Int, malformed: String?, storage: UnsafeBufferPointer<UInt8>, bounds: UnsafeBufferPointer<Int>,
    raw: UnsafeBufferPointer<UInt8>
  ) {
    self.line = line
    self.malformed = malformed ?? UTF8Validation.problem(raw)?.reason
    self.storage = storage
    self.bounds = bounds
    self.raw = raw
  }

  /// The number of fields.
  @usableFromInline package var count: Int { bounds.count / 2 }

  /// The bytes of field `index`, quotes removed and `""` unescaped; empty when the record has no such field.
  @inline(__always)
  @inlinable
  public func field(_ index: Int) -> UnsafeBufferPointer<UInt8> {
    guard index >= 0 && index < count else { return UnsafeBufferPointer(start: nil, count: 0) }
    return UnsafeBufferPointer(rebasing: storage[bounds[2 * index]..<bounds[2 * index + 1]])
  }

  /// Field `index` as a `String` (empty when absent).
  package func string(_ index: Int) -> String {
    String(decoding: field(index), as: UTF8.self)
  }

  /// Field `index` as a `String`, or `nil` when the cell is empty or absent (an empty cell is NULL).
  package func optionalString(_ index: Int) -> String? {
    let bytes = field(index)
    return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
  }

  /// The record's text for a reject (at most ``RawText/limit`` bytes).
  package var rawText: String { RawText.truncated(raw) }
}

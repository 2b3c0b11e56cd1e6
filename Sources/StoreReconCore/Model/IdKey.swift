/// A text id (a Stripe charge, invoice or refund id) as a dictionary key that hashes and compares
/// without reading a `String`'s bytes at every probe: an ASCII id of at most 32 bytes is packed into
/// four words and its length; any other id stays a `String`.
///
/// Two keys are equal exactly when their ids are equal as `String`s (canonical equivalence). An ASCII id
/// equals only its own bytes; the only non-ASCII texts canonically equal to ASCII ones are those holding
/// one of the three scalars whose canonical decomposition is an ASCII character (U+037E GREEK QUESTION
/// MARK `;`, U+1FEF GREEK VARIA `` ` ``, U+212A KELVIN SIGN `K`), which are keyed as that ASCII text.
package enum IdKey: Hashable, Sendable {
  case packed(UInt64, UInt64, UInt64, UInt64, count: UInt8)
  case text(String)

  /// The key of `id`.
  package init(_ id: String) {
    var id = id
    if let packed = id.withUTF8({ IdKey.packed($0) }) {
      self = packed
      return
    }
    // Not ASCII (or longer than 32 bytes): an id canonically equal to an ASCII text is keyed as that text.
    var folded = String.UnicodeScalarView()
    var changed = false
    for scalar in id.unicodeScalars {
      switch scalar.value {
      case 0x037E: folded.append(";")
      case 0x1FEF: folded.append("`")
      case 0x212A: folded.append("K")
      default:
        folded.append(scalar)
        continue
      }
      changed = true
    }
    var ascii = String(folded)
    if changed, ascii == id, let packed = ascii.withUTF8({ IdKey.packed($0) }) {
      self = packed
    } else {
      self = .text(changed && ascii == id ? ascii : id)
    }
  }
}

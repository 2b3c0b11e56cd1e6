// Safety: each read writes only into the array's own buffer inside the closure; BodySource copies at most
// `buffer.count` bytes into the caller's buffer.

import StoreReconIO

/// Checks that a downloaded report is a whole gzip stream of text before it is written: inflated to the
/// end through IO's ``GzipByteSource`` (bad data or a cut-off stream fails), and its first line holds a
/// tab (a report's header row).
enum GzipCheck {
  /// `nil` when `body` is a complete gzip of tab-separated text; else why not.
  static func problem(_ body: [UInt8], name: String) -> String? {
    guard body.count >= 18, body[0] == 0x1F, body[1] == 0x8B else { return "not gzip data" }
    do {
      let gzip = try GzipByteSource(file: BodySource(body), displayName: name)
      var buffer = [UInt8](repeating: 0, count: 64 * 1024)
      var first: [UInt8] = []
      while true {
        let n = try buffer.withUnsafeMutableBufferPointer { try gzip.read(into: $0) }
        if n == 0 { break }
        if first.count < 4096 { first.append(contentsOf: buffer[0..<min(n, 4096)]) }
      }
      let header = first.prefix { $0 != 0x0A }
      return header.contains(0x09) ? nil : "not a tab-separated report"
    } catch {
      return "\(error)"
    }
  }

  /// A response body handed to the inflater in pieces.
  private final class BodySource: ByteSource {
    private var rest: ArraySlice<UInt8>
    init(_ body: [UInt8]) { rest = body[...] }

    func read(into buffer: UnsafeMutableBufferPointer<UInt8>) throws(InputError) -> Int {
      let piece = rest.prefix(buffer.count)
      _ = UnsafeMutableBufferPointer(rebasing: buffer[0..<piece.count]).initialize(from: piece)
      rest = rest.dropFirst(piece.count)
      return piece.count
    }
  }
}

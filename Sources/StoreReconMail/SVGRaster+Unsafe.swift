// Safety: librsvg reads the SVG text inside the closure only; the PNG it allocates (malloc) is copied into an
// array and freed once, by `defer`; the message buffer is 256 bytes and read up to its zero byte; picture
// size checked by precondition.

internal import CRsvg

/// The fence around librsvg and cairo: the only file of the mail adapter that touches their buffers.
/// ``EmailPictures`` hands it one SVG at a time.
enum SVGRaster {
  /// Why a picture was not rendered.
  struct Failure: Error, Equatable {
    var reason: String
  }

  /// `svg` rendered at `width` × `height` pixels on white, as PNG bytes.
  ///
  /// - Precondition: `width` and `height` are between 1 and 8,192 (an e-mail picture, not a poster).
  static func png(svg: String, width: Int, height: Int) throws(Failure) -> [UInt8] {
    precondition((1...8192).contains(width) && (1...8192).contains(height), "SVGRaster: picture size")
    var text = Array(svg.utf8)
    var out: UnsafeMutablePointer<UInt8>?
    var length = 0
    var message = [CChar](repeating: 0, count: 256)
    let step = text.withUnsafeMutableBufferPointer { bytes in
      bytes.withMemoryRebound(to: CChar.self) { chars in
        storerecon_svg_to_png(
          chars.baseAddress, chars.count, Int32(width), Int32(height), &out, &length, &message)
      }
    }
    guard step == 0, let out else {
      let detail = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
      let what = [
        1: "the SVG does not parse", 2: "no image surface", 3: "rendering failed", 4: "PNG encoding failed",
      ]
      throw Failure(reason: (what[Int(step)] ?? "step \(step)") + (detail.isEmpty ? "" : ": \(detail)"))
    }
    defer { free(out) }
    return Array(UnsafeBufferPointer(start: out, count: length))
  }
}

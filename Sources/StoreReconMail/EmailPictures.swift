/// The summary's inline SVG pictures as PNG images for the e-mail: Gmail and Outlook drop `<svg>`, so
/// the e-mail's HTML shows each picture as an `<img src="cid:…">` of a PNG part of the message
/// (`multipart/related`), rendered by the job (``SVGRaster``, librsvg) at twice the picture's size for
/// sharp text on high-density screens. summary.html itself keeps the SVG.
package enum EmailPictures {
  /// The PNG pixels per SVG unit.
  static let scale = 2

  /// `html` with every `<svg …>…</svg>` replaced by an `<img>` of its PNG, and the PNGs (in order, their
  /// Content-IDs made from `tag`); a picture that cannot be rendered stays SVG and is named in
  /// `failures`.
  package static func inline(html: String, tag: String) -> (
    html: String, images: [MailInlineImage], failures: [String]
  ) {
    var out = ""
    var images: [MailInlineImage] = []
    var failures: [String] = []
    var rest = Substring(html)
    while let start = rest.firstRange(of: "<svg "),
      let end = rest[start.lowerBound...].firstRange(of: "</svg>")
    {
      out += rest[..<start.lowerBound]
      let svg = String(rest[start.lowerBound..<end.upperBound])
      rest = rest[end.upperBound...]
      let title = between(svg, "<title>", "</title>") ?? "picture"
      guard let (width, height) = viewBox(svg) else {
        failures.append("\(title): no view box")
        out += svg
        continue
      }
      do {
        // The view box gives the size; `width="100%"` is for the browser's layout only.
        let sized = svg.replacingFirst("width=\"100%\"", with: "width=\"\(width)\" height=\"\(height)\"")
        let png = try SVGRaster.png(svg: sized, width: width * scale, height: height * scale)
        let id = "picture-\(images.count + 1).\(tag)@storerecon"
        images.append(MailInlineImage(contentID: id, filename: "picture-\(images.count + 1).png", bytes: png))
        out +=
          "<img src=\"cid:\(id)\" alt=\"\(title)\" width=\"\(width)\" "
          + "style=\"width:100%;max-width:\(width)px;height:auto;display:block;margin:4px 0 12px 0;\">"
      } catch {
        failures.append("\(title): \(error.reason)")
        out += svg
      }
    }
    out += rest
    return (out, images, failures)
  }

  /// The text between the first `open` and the next `close`.
  static func between(_ text: String, _ open: String, _ close: String) -> String? {
    guard let a = text.firstRange(of: open), let b = text[a.upperBound...].firstRange(of: close) else {
      return nil
    }
    return String(text[a.upperBound..<b.lowerBound])
  }

  /// The integer width and height of the picture's `viewBox="0 0 W H"`.
  static func viewBox(_ svg: String) -> (Int, Int)? {
    guard let box = between(svg, "viewBox=\"", "\"") else { return nil }
    let parts = box.split(separator: " ").compactMap { Double($0) }
    guard parts.count == 4, parts[2] >= 1, parts[3] >= 1, parts[2] <= 4096, parts[3] <= 4096 else {
      return nil
    }
    return (Int(parts[2].rounded(.up)), Int(parts[3].rounded(.up)))
  }
}

/// A picture the e-mail's HTML shows by Content-ID (`multipart/related`).
package struct MailInlineImage: Sendable, Equatable {
  /// The Content-ID without angle brackets (`picture-1.<tag>@storerecon`).
  package var contentID: String
  /// The name a client shows when it lists the part.
  package var filename: String
  /// The PNG bytes.
  package var bytes: [UInt8]

  /// Creates an inline image.
  package init(contentID: String, filename: String, bytes: [UInt8]) {
    self.contentID = contentID
    self.filename = filename
    self.bytes = bytes
  }
}

extension String {
  /// `self` with the first occurrence of `target` replaced.
  fileprivate func replacingFirst(_ target: String, with replacement: String) -> String {
    guard let r = firstRange(of: target) else { return self }
    return String(self[..<r.lowerBound]) + replacement + String(self[r.upperBound...])
  }
}

import Testing

@testable import StoreReconCore
@testable import StoreReconMail
@testable import StoreReconSettings
@testable import StoreReconReports

/// The e-mail's pictures: each inline SVG of the summary becomes a PNG part (librsvg) that the HTML
/// shows by Content-ID, for the clients that strip SVG.
struct EmailPicturesTests {
  static let chart = SVGChart.lineChart(
    title: "Gross <revenue>", xLabels: ["2026-11-28", "2026-11-29"],
    lines: [SVGChart.Line(name: "app_store", values: [1, 3]), SVGChart.Line(name: "play", values: [2, 2])]
  ) { "\($0)" }

  /// The big-endian 32-bit number at `offset`.
  static func number(_ bytes: [UInt8], _ offset: Int) -> Int {
    bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  @Test func eachSVGBecomesAPNGTheHTMLShowsByContentID() throws {
    let html = "<p>before</p>\n" + Self.chart + "<p>between</p>\n" + Self.chart + "<p>after</p>\n"
    let result = EmailPictures.inline(html: html, tag: "t1")
    #expect(result.failures.isEmpty)
    #expect(result.images.map(\.contentID) == ["picture-1.t1@storerecon", "picture-2.t1@storerecon"])
    #expect(!result.html.contains("<svg"))
    #expect(
      result.html.hasPrefix(
        "<p>before</p>\n<img src=\"cid:picture-1.t1@storerecon\" alt=\"Gross &lt;revenue&gt;\""))
    #expect(result.html.contains("<p>between</p>\n<img src=\"cid:picture-2.t1@storerecon\""))
    #expect(result.html.hasSuffix("<p>after</p>\n"))
    for image in result.images {
      let png = image.bytes
      #expect(png.prefix(8) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
      // IHDR: twice the view box (600 × 240).
      #expect(Array(png[12..<16]) == Array("IHDR".utf8))
      #expect(Self.number(png, 16) == 1200 && Self.number(png, 20) == 480)
    }
    // The picture is drawn, not blank: a white image of this size compresses far smaller.
    let blank = try SVGRaster.png(
      svg:
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 600 240\" width=\"600\" height=\"240\"></svg>",
      width: 1200, height: 480)
    #expect(
      result.images[0].bytes.count > 4 * blank.count, "\(result.images[0].bytes.count) vs \(blank.count)")
    // Same input, same bytes.
    #expect(EmailPictures.inline(html: html, tag: "t1").images == result.images)
  }

  @Test func aPictureThatCannotBeRenderedStaysSVGAndIsNamed() {
    let broken =
      "<svg role=\"img\" viewBox=\"0 0 100 50\" width=\"100%\"><title>broken</title><text>unclosed</svg>"
    let noBox = "<svg role=\"img\" width=\"100%\"><title>no box</title></svg>"
    let result = EmailPictures.inline(html: "a" + broken + "b" + noBox + "c", tag: "t")
    #expect(result.images.isEmpty)
    #expect(result.html == "a" + broken + "b" + noBox + "c")
    #expect(result.failures.count == 2)
    #expect(result.failures.first?.hasPrefix("broken: the SVG does not parse") == true, "\(result.failures)")
    #expect(result.failures.last == "no box: no view box")
  }

  @Test func theMessageCarriesTheHTMLAndItsPicturesAsMultipartRelated() throws {
    let pictures = EmailPictures.inline(html: "<p>x</p>" + Self.chart, tag: "t")
    var message = MailMessage(
      from: MailAddress(address: "recon@acme.example"), to: [MailAddress(address: "finance@acme.example")],
      subject: "s", date: Instant(ms: 1_796_000_000_000), messageId: "m.1@acme.example", text: "t\n",
      html: pictures.html)
    message.images = pictures.images
    let text = String(decoding: message.rendered(), as: UTF8.self)
    let (_, alternative) = message.boundaries
    let related = message.relatedBoundary
    // text/plain, then multipart/related (text/html, image/png) inside the alternative.
    let plain = try #require(text.range(of: "Content-Type: text/plain"))
    let relatedHead = try #require(
      text.range(of: "Content-Type: multipart/related;\r\n boundary=\"\(related)\""))
    let htmlPart = try #require(text.range(of: "Content-Type: text/html"))
    let image = try #require(text.range(of: "Content-Type: image/png; name=\"picture-1.png\""))
    let closeAlternative = try #require(text.range(of: "\r\n--\(alternative)--\r\n"))
    #expect(plain.lowerBound < relatedHead.lowerBound && relatedHead.lowerBound < htmlPart.lowerBound)
    #expect(htmlPart.lowerBound < image.lowerBound && image.lowerBound < closeAlternative.lowerBound)
    #expect(
      text.contains(
        "Content-ID: <picture-1.t@storerecon>\r\nContent-Disposition: inline; filename=\"picture-1.png\""))
    #expect(text.components(separatedBy: "\r\n--\(related)\r\n").count == 3)
    #expect(text.components(separatedBy: "\r\n--\(related)--\r\n").count == 2)
    // Without pictures, no related part.
    message.images = []
    #expect(!String(decoding: message.rendered(), as: UTF8.self).contains("multipart/related"))
  }
}

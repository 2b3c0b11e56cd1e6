import StoreReconReports
import Testing

/// The forest plot's texts never overlap, whatever the number of arms and the length of their names:
/// every text's box (its width counted as ``SVGChart/textWidth(_:fontSize:)``, 0.75 × the font size
/// per character) is checked against every other and against the picture's edges.
@Suite struct ForestPlotLayoutTests {
  struct Box: CustomStringConvertible {
    var text: String
    var x0, x1, y0, y1: Double
    var description: String { "'\(text)' [\(x0), \(x1)] × [\(y0), \(y1)]" }
    func overlaps(_ o: Box) -> Bool { x0 < o.x1 && o.x0 < x1 && y0 < o.y1 && o.y0 < y1 }
  }

  /// The attribute `name` of an SVG element's opening tag.
  static func attribute(_ name: String, in tag: Substring) -> String? {
    guard let start = tag.firstRange(of: " \(name)=\"") else { return nil }
    let rest = tag[start.upperBound...]
    return rest.firstIndex(of: "\"").map { String(rest[..<$0]) }
  }

  /// Every `<text>` of `svg` as a box: its anchor decides where the box starts; 11 px high above the
  /// baseline, 3 px below it; a title squeezed to `textLength` is that wide.
  static func boxes(_ svg: String) -> [Box] {
    var out: [Box] = []
    var rest = svg[...]
    while let open = rest.firstRange(of: "<text ") {
      guard let close = rest[open.upperBound...].firstIndex(of: ">"),
        let end = rest[close...].firstRange(of: "</text>")
      else { break }
      let tag = rest[open.lowerBound..<close]
      let content = String(rest[rest.index(after: close)..<end.lowerBound])
        .replacing("&lt;", with: "<").replacing("&gt;", with: ">").replacing("&quot;", with: "\"")
        .replacing("&#39;", with: "'").replacing("&amp;", with: "&")
      let x = Double(attribute("x", in: tag) ?? "") ?? .nan
      let y = Double(attribute("y", in: tag) ?? "") ?? .nan
      let width = attribute("textLength", in: tag).flatMap(Double.init) ?? SVGChart.textWidth(content)
      let anchor = attribute("text-anchor", in: tag) ?? "start"
      let x0 = anchor == "start" ? x : (anchor == "end" ? x - width : x - width / 2)
      out.append(Box(text: content, x0: x0, x1: x0 + width, y0: y - 11, y1: y + 3))
      rest = rest[end.upperBound...]
    }
    return out
  }

  static func viewBox(_ svg: String) -> (Double, Double) {
    let tag = svg[..<(svg.firstIndex(of: ">") ?? svg.endIndex)]
    let parts = (attribute("viewBox", in: tag) ?? "").split(separator: " ").compactMap { Double($0) }
    return parts.count == 4 ? (parts[2], parts[3]) : (0, 0)
  }

  @Test(arguments: [1, 2, 3, 5, 8, 12], [1, 6, 24, 60, 200])
  func labelsNeverOverlap(arms: Int, nameLength: Int) {
    let rows = (0..<arms).map { i in
      let name = String(repeating: "W", count: max(0, nameLength - 2)) + "-\(i % 10)"
      let spread = Double(i + 1) * 37_000.5
      return SVGChart.Estimate(
        label: name, estimate: Double(i) * 1_234.5 - 900, low: -spread, high: spread / 3)
    }
    let svg = SVGChart.forestPlot(
      title: "Revenue per assigned user vs control, 95 % bootstrap interval", rows: rows
    ) { v in (v >= 0 ? "+" : "") + String(Int(v.rounded())) + " USD" }
    let boxes = Self.boxes(svg)
    let (width, height) = Self.viewBox(svg)
    // Title, two texts per row, and at least the two axis ends.
    #expect(boxes.count >= 1 + 2 * arms + 2, "arms \(arms), name length \(nameLength)")
    for (i, a) in boxes.enumerated() {
      #expect(a.x0 >= 0 && a.x1 <= width && a.y0 >= 0 && a.y1 <= height, "outside the picture: \(a)")
      for b in boxes[(i + 1)...] {
        #expect(!a.overlaps(b), "arms \(arms), name length \(nameLength): \(a) overlaps \(b)")
      }
    }
  }

  @Test func aShortLabelIsKeptWhole() {
    let svg = SVGChart.forestPlot(
      title: "t", rows: [SVGChart.Estimate(label: "high", estimate: 104, low: 53, high: 156)]
    ) { String(Int($0)) }
    #expect(Self.boxes(svg).contains { $0.text == "high" })
    #expect(Self.boxes(svg).contains { $0.text == "104 [53, 156]" })
  }
}

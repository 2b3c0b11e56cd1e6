package import StoreReconCore

/// Small inline SVG pictures for `summary.html`: no script, no external resource, every text escaped;
/// `width="100%"` with a view box, so a picture shrinks to a phone's width.
///
/// Coordinates are `Double`: the one step where an exact amount becomes a position on the picture (as
/// the workbook turns an amount into a spreadsheet number); nothing computed here is money.
package enum SVGChart {
  /// One line of a line chart: its legend name and a value per x position.
  package struct Line: Sendable, Equatable {
    package var name: String
    package var values: [Double]

    /// Creates a line.
    package init(name: String, values: [Double]) {
      self.name = name
      self.values = values
    }
  }

  /// One row of a forest plot: a label, the estimate and its interval.
  package struct Estimate: Sendable, Equatable {
    package var label: String
    package var estimate: Double
    package var low: Double
    package var high: Double

    /// Creates a row.
    package init(label: String, estimate: Double, low: Double, high: Double) {
      self.label = label
      self.estimate = estimate
      self.low = low
      self.high = high
    }
  }

  static let colours = [
    "#0969da", "#bc4c00", "#1a7f37", "#8250df", "#cf222e", "#6e7781", "#bf8700", "#1b7c83", "#bf3989",
    "#0550ae", "#953800", "#116329",
  ]
  static let width = 600.0
  static let left = 70.0
  static let right = 16.0

  /// A line chart: `xLabels` under the x axis (the first, middle and last shown), one polyline per
  /// line, the y axis from 0 (or the lowest value) to the highest with `yLabel` formatting its ticks.
  package static func lineChart(
    title: String, xLabels: [String], lines: [Line], yLabel: (Double) -> String
  ) -> String {
    // The legend wraps: as many 170-pixel entries per row as fit, a row of 16 pixels each.
    let perRow = max(1, Int((width - left - right) / 170))
    let legendRows = (lines.count + perRow - 1) / perRow
    let legendTop = 226.0
    let height = max(240.0, legendTop + 16 * Double(legendRows) - 2)
    let (top, bottom) = (28.0, 200.0)
    let all = lines.flatMap(\.values)
    let low = min(0, all.min() ?? 0)
    var high = all.max() ?? 1
    if high <= low { high = low + 1 }
    let count = max(xLabels.count, 2)
    func x(_ i: Int) -> Double { left + (width - left - right) * Double(i) / Double(count - 1) }
    func y(_ v: Double) -> Double { bottom - (bottom - top) * (v - low) / (high - low) }
    var out = open(title: title, height: height)
    for tick in [low, (low + high) / 2, high] {
      out += "<line x1=\"\(f(left))\" y1=\"\(f(y(tick)))\" x2=\"\(f(width - right))\" y2=\"\(f(y(tick)))\" "
      out += "stroke=\"#d0d7de\" stroke-width=\"1\"/>"
      out += text(yLabel(tick), x: left - 6, y: y(tick) + 4, anchor: "end")
    }
    for i in Set([0, (xLabels.count - 1) / 2, xLabels.count - 1]).sorted() where i < xLabels.count {
      out += text(
        xLabels[i], x: x(i), y: bottom + 16,
        anchor: i == 0 ? "start" : (i == xLabels.count - 1 ? "end" : "middle"))
    }
    for (n, line) in lines.enumerated() {
      let points = line.values.enumerated().map { "\(f(x($0.offset))),\(f(y($0.element)))" }
      let colour = colours[n % colours.count]
      out +=
        "<polyline fill=\"none\" stroke=\"\(colour)\" stroke-width=\"2\" points=\"\(points.joined(separator: " "))\">"
      out += "<title>\(HTMLText.escape(line.name))</title></polyline>"
      let (legendX, legendY) = (left + Double(n % perRow) * 170, legendTop + 16 * Double(n / perRow))
      out +=
        "<rect x=\"\(f(legendX))\" y=\"\(f(legendY))\" width=\"10\" height=\"10\" fill=\"\(colour)\"/>"
      out += text(line.name, x: legendX + 14, y: legendY + 9, anchor: "start")
    }
    return out + "</svg>\n"
  }

  /// The font size of every text of a picture but the title (px).
  static let fontSize = 11.0
  /// A text's width as laid out: 0.75 × the font size per character, more than Arial or DejaVu Sans
  /// need for any lower-case letter or digit, so texts placed this far apart never touch.
  package static func textWidth(_ s: String, fontSize: Double = fontSize) -> Double {
    Double(s.count) * fontSize * 0.75
  }

  /// A forest plot: one block per estimate — its label (left) and figures (right) on a text row of
  /// their own, the bar over its interval with a dot at the estimate below — a dashed line at zero and
  /// the axis ends under the plot; `valueLabel` formats the axis ends and each row's figures. Texts are
  /// measured (``textWidth(_:fontSize:)``): a label too long for its row is cut with `…` (the whole
  /// label is the row's tooltip), an axis label that would touch another is left out, so no two texts
  /// overlap at any width or number of rows.
  package static func forestPlot(title: String, rows: [Estimate], valueLabel: (Double) -> String) -> String {
    let (rowHeight, top, margin) = (36.0, 26.0, 8.0)
    let (plotLeft, plotRight) = (margin + 4, width - margin - 4)
    var low = min(0, rows.map(\.low).min() ?? 0)
    var high = max(0, rows.map(\.high).max() ?? 0)
    if high <= low { (low, high) = (low - 1, high + 1) }
    let pad = (high - low) * 0.05
    (low, high) = (low - pad, high + pad)
    func x(_ v: Double) -> Double { plotLeft + (plotRight - plotLeft) * (v - low) / (high - low) }
    let plotBottom = top + rowHeight * Double(max(rows.count, 1))
    let axis = axisLabels(
      [(valueLabel(low), plotLeft, "start"), (valueLabel(high), plotRight, "end"), ("0", x(0), "middle")],
      y: plotBottom + 16)
    let height = (axis.map(\.y).max() ?? plotBottom) + 8
    var out = open(title: title, height: height)
    let zero = f(x(0))
    out += "<line x1=\"\(zero)\" y1=\"\(f(top))\" x2=\"\(zero)\" y2=\"\(f(plotBottom))\" stroke=\"#59636e\" "
    out += "stroke-dasharray=\"4 3\" stroke-width=\"1\"/>"
    for label in axis { out += text(label.text, x: label.x, y: label.y, anchor: label.anchor) }
    for (i, row) in rows.enumerated() {
      let rowTop = top + rowHeight * Double(i)
      let colour = row.low > 0 ? "#1a7f37" : (row.high < 0 ? "#cf222e" : "#0969da")
      let figures = "\(valueLabel(row.estimate)) [\(valueLabel(row.low)), \(valueLabel(row.high))]"
      let room = width - 2 * margin - textWidth(figures) - 12
      out += "<g><title>\(HTMLText.escape(row.label))</title>"
      out += text(cut(row.label, toWidth: room), x: margin, y: rowTop + 12, anchor: "start", bold: true)
      out += text(figures, x: width - margin, y: rowTop + 12, anchor: "end") + "</g>"
      let cy = rowTop + 24
      out += "<line x1=\"\(f(x(row.low)))\" y1=\"\(f(cy))\" x2=\"\(f(x(row.high)))\" y2=\"\(f(cy))\" "
      out += "stroke=\"\(colour)\" stroke-width=\"3\"/>"
      out += "<circle cx=\"\(f(x(row.estimate)))\" cy=\"\(f(cy))\" r=\"5\" fill=\"\(colour)\"/>"
    }
    return out + "</svg>\n"
  }

  /// `s`, cut with `…` so that it is at most `limit` wide (at least its first character).
  static func cut(_ s: String, toWidth limit: Double) -> String {
    guard textWidth(s) > limit else { return s }
    let keep = max(1, Int(limit / (fontSize * 0.75)) - 1)
    return String(s.prefix(keep)) + "…"
  }

  /// Axis labels in order of importance, each kept only where it touches none kept before (4 px
  /// apart): the ends first; an end that collides with the other goes a row lower instead.
  static func axisLabels(
    _ labels: [(text: String, x: Double, anchor: String)], y: Double
  ) -> [(text: String, x: Double, y: Double, anchor: String)] {
    var kept: [(text: String, x: Double, y: Double, anchor: String)] = []
    func span(_ l: (text: String, x: Double, anchor: String)) -> ClosedRange<Double> {
      let w = textWidth(l.text)
      let start = l.anchor == "start" ? l.x : (l.anchor == "end" ? l.x - w : l.x - w / 2)
      return (start - 2)...(start + w + 2)
    }
    for (n, label) in labels.enumerated() {
      let clashes = kept.contains { $0.y == y && span(($0.text, $0.x, $0.anchor)).overlaps(span(label)) }
      if !clashes {
        kept.append((label.text, label.x, y, label.anchor))
      } else if n < 2 {
        kept.append((label.text, label.x, y + 14, label.anchor))
      }
    }
    return kept
  }

  static func open(title: String, height: Double) -> String {
    "<svg role=\"img\" viewBox=\"0 0 \(f(width)) \(f(height))\" "
      + "width=\"100%\" style=\"max-width:\(f(width))px;height:auto;display:block;margin:4px 0 12px 0;"
      + "font-family:Arial,Helvetica,sans-serif;font-size:11px;\"><title>\(HTMLText.escape(title))</title>"
      + text(title, x: 4, y: 14, anchor: "start", bold: true, fitWithin: width - 8)
  }

  /// A text at (x, y); with `fitWithin`, a text wider than that (about 6.2 units a bold character at
  /// 11 px) is squeezed to it (`textLength`), so a long title is not cut at the picture's edge.
  static func text(
    _ s: String, x: Double, y: Double, anchor: String, bold: Bool = false, fitWithin: Double? = nil
  ) -> String {
    let weight = bold ? " font-weight=\"bold\"" : ""
    var fit = ""
    if let limit = fitWithin, Double(s.count) * 6.2 > limit {
      fit = " textLength=\"\(f(limit))\" lengthAdjust=\"spacingAndGlyphs\""
    }
    return "<text x=\"\(f(x))\" y=\"\(f(y))\" text-anchor=\"\(anchor)\" fill=\"#1f2328\"\(weight)\(fit)>"
      + "\(HTMLText.escape(s))</text>"
  }

  /// A coordinate with one decimal: `12.5`.
  static func f(_ v: Double) -> String {
    guard v.isFinite else { return "0" }
    let text = Currency.render(Int64((v * 10).rounded(.toNearestOrEven)), scale: 1)
    return text.hasSuffix(".0") ? String(text.dropLast(2)) : text
  }
}

import Foundation
import StoreReconTestSupport
import Testing

@testable import StoreReconCore
@testable import StoreReconReports
@testable import StoreReconWorkbooks

/// `price-tests.xlsx`'s forest chart as LibreOffice draws it: converted to PDF by `soffice`, the page
/// rendered by `pdftoppm`, the chart must show each interval as a line (a long run of coloured pixels),
/// not as three loose dots (what a line chart with high-low bars became in LibreOffice). Skips where
/// LibreOffice or poppler-utils are not installed.
@Suite(.serialized) struct PriceTestsWorkbookRenderTests {
  static func tool(_ name: String, in folders: [String]) -> String? {
    folders.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
  }
  static let soffice = tool("soffice", in: ["/usr/bin", "/usr/local/bin", "/usr/lib/libreoffice/program"])
  static let pdftoppm = tool("pdftoppm", in: ["/usr/bin", "/usr/local/bin"])

  /// A binary PPM (P6) as rows of RGB pixels.
  struct Image {
    var width = 0
    var height = 0
    var pixels: [UInt8] = []

    init?(ppm bytes: [UInt8]) {
      // Header: P6, width, height, maxval, each separated by whitespace, then one whitespace byte.
      var fields: [Int] = []
      var i = 2
      guard bytes.count > 2, bytes[0] == 0x50, bytes[1] == 0x36 else { return nil }
      while fields.count < 3, i < bytes.count {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x0A || bytes[i] == 0x0D || bytes[i] == 0x09 {
          i += 1
        }
        var n = 0
        while i < bytes.count, bytes[i] >= 0x30, bytes[i] <= 0x39 {
          n = n * 10 + Int(bytes[i] - 0x30)
          i += 1
        }
        fields.append(n)
      }
      i += 1
      (width, height) = (fields[0], fields[1])
      guard fields[2] == 255, bytes.count - i >= width * height * 3 else { return nil }
      pixels = Array(bytes[i..<(i + width * height * 3)])
    }

    /// Whether pixel (x, y) is clearly coloured (not white, grey or black).
    func coloured(_ x: Int, _ y: Int) -> Bool {
      let p = (y * width + x) * 3
      let (r, g, b) = (Int(pixels[p]), Int(pixels[p + 1]), Int(pixels[p + 2]))
      return max(r, g, b) - min(r, g, b) > 80
    }

    /// The longest horizontal run of coloured pixels in any row.
    var longestColouredRun: Int {
      var best = 0
      for y in 0..<height {
        var run = 0
        for x in 0..<width {
          run = coloured(x, y) ? run + 1 : 0
          best = max(best, run)
        }
      }
      return best
    }
  }

  @Test(
    .enabled(
      if: soffice != nil && pdftoppm != nil,
      "needs LibreOffice (soffice) and pdftoppm: apt-get install libreoffice-calc-nogui poppler-utils"),
    .timeLimit(.minutes(3)))
  func theForestChartDrawsLinesInLibreOffice() throws {
    let (soffice, pdftoppm) = (try #require(Self.soffice), try #require(Self.pdftoppm))
    let dir = try TempDir()
    let xlsx = dir.path("forest.xlsx")
    let readout = try PriceTestsWorkbookTests.readout()
    try XLSXWorkbook.write(to: xlsx, properties: XLSXProperties(title: "forest", created: readout.reportDate))
    {
      workbook throws(XLSXError) in
      let sheet = try workbook.addWorksheet("forest")
      _ = try PriceTestsWorkbook.writeForest(readout, into: sheet, row: 0)
    }
    // A private LibreOffice profile: never the user's, and no clash with another soffice running.
    _ = try Tool.run(
      soffice,
      [
        "-env:UserInstallation=file://\(dir.path("profile"))", "--headless", "--convert-to", "pdf",
        "--outdir",
        dir.path(""), xlsx,
      ], input: [])
    let pdf = dir.path("forest.pdf")
    #expect(FileManager.default.fileExists(atPath: pdf), "soffice wrote no PDF")
    _ = try Tool.run(
      pdftoppm, ["-r", "100", "-f", "1", "-l", "1", "-singlefile", pdf, dir.path("page")], input: [])
    let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: dir.path("page.ppm"))))
    let image = try #require(Image(ppm: bytes), "pdftoppm wrote no P6 image")
    var colouredPixels = 0
    for y in 0..<image.height { for x in 0..<image.width where image.coloured(x, y) { colouredPixels += 1 } }
    // The interval +9.53 … +11.91 USD is a line over 100 px long at 100 dpi; a dot is ~10 px wide.
    #expect(colouredPixels > 150, "the chart is (nearly) blank: \(colouredPixels) coloured pixels")
    #expect(image.longestColouredRun > 60, "no line drawn: longest run \(image.longestColouredRun) px")
  }
}

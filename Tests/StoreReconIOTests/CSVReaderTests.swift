import Testing
import StoreReconTestSupport

@testable import StoreReconIO

@Suite struct CSVReaderTests {
  /// Every record of `text` as (line, fields, malformed).
  func records(_ text: String) throws -> (header: [String], rows: [(Int, [String], String?, String)]) {
    let dir = try TempDir()
    let path = try dir.write("t.csv", text)
    let csv = try CSVReader(path: path, displayName: "t.csv")
    var rows: [(Int, [String], String?, String)] = []
    try csv.forEachRecord { record in
      rows.append(
        (record.line, (0..<record.count).map { record.string($0) }, record.malformed, record.rawText))
    }
    return (csv.header, rows)
  }

  @Test func quotedFieldsWithCommasQuotesAndNewlines() throws {
    let text = "id,name,note\n1,\"Smith, J.\",\"said \"\"hi\"\"\"\n2,\"two\nlines\",x\n3,,\n"
    let (header, rows) = try records(text)
    #expect(header == ["id", "name", "note"])
    #expect(rows.count == 3)
    #expect(rows[0].1 == ["1", "Smith, J.", "said \"hi\""])
    #expect(rows[0].0 == 2)
    #expect(rows[1].1 == ["2", "two\nlines", "x"])
    #expect(rows[1].0 == 3)
    #expect(rows[1].3 == "2,\"two\nlines\",x")
    #expect(rows[2].1 == ["3", "", ""])
    #expect(rows[2].0 == 5)
  }

  @Test func crlfAndBlankLastLine() throws {
    let (_, rows) = try records("a,b\r\n1,2\r\n\r\n")
    #expect(rows.map(\.1) == [["1", "2"]])
  }

  @Test func emptyQuotedFieldAndQuoteInsideUnquotedField() throws {
    let (_, rows) = try records("a,b\n\"\",5\" screen\n")
    #expect(rows[0].1 == ["", "5\" screen"])
  }

  @Test func textAfterClosingQuoteIsMalformed() throws {
    let (_, rows) = try records("a,b\n\"x\"y,2\n3,4\n")
    #expect(rows[0].2 == "field 1 has text after its closing quote")
    #expect(rows[1].1 == ["3", "4"])
  }

  @Test func unclosedQuoteAtEndIsMalformed() throws {
    let (_, rows) = try records("a,b\n1,\"open\nstill open\n")
    #expect(rows.count == 1)
    #expect(rows[0].2 == "a quoted field is not closed before the end of the file")
    #expect(rows[0].0 == 2)
  }

  @Test func anUnclosedQuoteEndsAtALineThatIsARecordOfItsOwn() throws {
    let (_, rows) = try records("a,b\n1,\"open\nmore\n2,3\n4,\"two\nlines\"\n")
    #expect(rows.count == 3)
    #expect(rows[0].0 == 2)
    #expect(rows[0].2 == CSVReader.unclosedBeforeRecord)
    #expect(rows.map(\.0) == [2, 4, 5])
    #expect(rows[1].1 == ["2", "3"])
    #expect(rows[2].1 == ["4", "two\nlines"])
  }

  @Test func headerIsMappedByNameIgnoringCaseAndSpaces() throws {
    let dir = try TempDir()
    let path = try dir.write("h.csv", " Order Number ,SKU id,Extra\n")
    let csv = try CSVReader(path: path, displayName: "h.csv")
    #expect(csv.columnIndex("order number") == 0)
    #expect(csv.columnIndex("SKU ID") == 1)
    #expect(csv.columnIndex(anyOf: ["Package ID", "Extra"]) == 2)
    #expect(csv.columnIndex("Missing") == nil)
    #expect(throws: InputError.missingColumns(file: "h.csv", ["Currency of Sale", "Charged Amount"])) {
      _ = try csv.requireColumns(["SKU ID", "Currency of Sale", "Charged Amount"])
    }
  }

  @Test func aColumnNamedTwiceRefusesTheFile() throws {
    let dir = try TempDir()
    let path = try dir.write("d.csv", "credit_id,user_id,Store, store\n1,u,a,b\n")
    #expect(
      throws: InputError.malformed(
        path: "d.csv",
        reason: "the header row (line 1) names column ' store' twice (columns 3 and 4): "
          + "which one holds the data cannot be told")
    ) { _ = try CSVReader(path: path, displayName: "d.csv") }
    // Blank names (trailing separators) are not names.
    let blank = try dir.write("b.csv", "a,,b,\n1,,2,\n")
    #expect(try CSVReader(path: blank, displayName: "b.csv").columnIndex("b") == 2)
  }

  @Test func emptyFileHasNoHeader() throws {
    let (header, rows) = try records("")
    #expect(header.isEmpty)
    #expect(rows.isEmpty)
  }

  @Test func manyRecordsAcrossSmallChunks() throws {
    let dir = try TempDir()
    var text = "k,v\n"
    for i in 0..<500 { text += "\(i),\"v,\(i)\"\n" }
    let path = try dir.write("m.csv", text)
    let lines = LineReader(source: try InputBytes.open(path: path), displayName: "m.csv", chunkSize: 64)
    let csv = try CSVReader(lines: lines, displayName: "m.csv")
    var n = 0
    try csv.forEachRecord { record in
      #expect(record.string(1) == "v,\(n)")
      #expect(record.line == n + 2)
      n += 1
    }
    #expect(n == 500)
  }
}

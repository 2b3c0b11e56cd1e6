import Testing
import StoreReconTestSupport

/// What the fuzzers found, kept as readable inputs (their raw inputs are in Fuzz/corpus/).
@Suite struct FuzzFoundDifferentialRegressionTests {
  /// A header with a quoted line break reaching past the first chunk: the chunked import said the
  /// header was not valid CSV (it read the header from the first chunk only); CSVReader reads it.
  @Test(arguments: [16, 64, 1 << 20])
  func aHeaderWithAQuotedLineBreakIsReadHoweverSmallTheChunks(chunkBytes: Int) throws {
    let dir = try TempDir()
    let header =
      "Order Number,\"Order Charged\nTimestamp\",Order Charged Timestamp,Financial Status,SKU ID,"
      + "Currency of Sale,Charged Amount,\"Product Title, long\n\nwith \"\"quotes\"\"\"\n"
    let rows =
      "GPA.1234-5678-9012-34567,x,1764000000,Charged,pro,USD,4.99,Pro\n"
      + "GPA.1234-5678-9012-34568..1,x,1764000001,Refund,pro,USD,4.99,Pro\nbroken,row\n"
    let path = try dir.write("salesreport_202611.csv", header + rows)
    let expected = try ImportComparison.sequential([("sales", path)])
    #expect(expected.counts.first?.accepted == 2)
    #expect(try ImportComparison.packed([("sales", path)], chunkBytes: chunkBytes, threads: 2) == expected)
  }
}

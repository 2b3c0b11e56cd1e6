import Foundation
import Testing
import StoreReconTestSupport

/// Chunked, parallel import into the packed ledger must give exactly what a sequential, line-by-line
/// import gives: the same chains, records, rejects, counts and line numbers (on a whole demo world: in
/// StoreReconCLITests).
@Suite struct ParallelImportTests {
  @Test func linesAreSplitAndNumberedAsTheLineReaderDoes() throws {
    let dir = try TempDir()
    let good =
      #"{"originalTransactionId":"1","transactionId":"1","productId":"p","purchaseDate":1698148900001,"price":990,"currency":"USD"}"#
    let other =
      #"{"originalTransactionId":"2","transactionId":"3","productId":"p","purchaseDate":1698148900002,"price":990,"currency":"EUR"}"#
    let long =
      #"{"originalTransactionId":"4","transactionId":"4","productId":""# + String(repeating: "x", count: 5000)
      + #"","purchaseDate":1698148900003,"price":0,"currency":"USD"}"#
    let texts = [
      "\u{FEFF}" + good + "\n" + other + "\n",
      good + "\r\n\r\n  \n" + "not json\r\n" + other,
      "\n\n" + long + "\n" + good + "\n" + "{\"broken\n" + other + "\n",
      "",
      "   \n",
    ]
    for (n, text) in texts.enumerated() {
      let path = try dir.write("lines\(n).jsonl", text)
      let expected = try ImportComparison.sequential([("apple", path)])
      for (chunkBytes, threads) in [(3, 2), (64, 3), (100_000, 1)] {
        #expect(
          try ImportComparison.packed([("apple", path)], chunkBytes: chunkBytes, threads: threads)
            == expected,
          "text \(n)")
      }
    }
  }

  @Test func csvRecordsAreReadAsTheCSVReaderDoes() throws {
    let dir = try TempDir()
    let header =
      "Order Number,Order Charged Date,Order Charged Timestamp,Financial Status,Product Type,SKU ID,Currency of Sale,"
      + "Charged Amount,Taxes Collected,Base Plan ID,Note"
    func row(_ n: Int, _ note: String = "x", status: String = "Charged", amount: String = "4.99") -> String {
      "GPA.1234-5678-9012-\(10_000 + n)..\(n % 3),2026-10-01,\(1_790_000_000 + n),\(status),subscription,pro,EUR,"
        + "\(amount),0.80,monthly,\(note)"
    }
    let texts = [
      "\u{FEFF}" + header + "\r\n" + (0..<40).map { row($0) }.joined(separator: "\r\n") + "\r\n",
      header + "\n\n" + row(1, "\"two\nlines\"") + "\n   \n" + row(2, "\"a, b\"\"c\"") + "\n"
        + row(3, status: "Lost")
        + "\n" + row(4, amount: "4.999") + "\n" + "short,row\n" + row(5, "\"bad\"x") + "\n"
        + row(6, "\"open\n\n\nstill\"")
        + "\n" + row(7),
      "\n" + header + "\n" + row(1) + "\n" + row(2, "\"never closed") + "\n" + row(3) + "\n",
      "\"Order Number\",\"SKU ID\"\nGPA.1,pro\n",
      header + "\n",
      "",
    ]
    for (n, text) in texts.enumerated() {
      let path = try dir.write("sales\(n).csv", text)
      let expected = try? ImportComparison.sequential([("sales", path)])
      for (chunkBytes, threads) in [(5, 2), (64, 3), (300, 2), (1 << 20, 1)] {
        let got = try? ImportComparison.packed([("sales", path)], chunkBytes: chunkBytes, threads: threads)
        #expect(got == expected, "text \(n), chunks of \(chunkBytes) on \(threads)")
      }
    }
  }
}

// Play estimated sales reports (reference §3.1): CSV with the columns in any order, quoted titles with
// commas and quotes, and the forms of every cell the importer reads.
extension LineVariants {
  /// The columns of Google's report, in its order.
  static let playSalesColumns = [
    "Order Number", "Order Charged Date", "Order Charged Timestamp", "Financial Status", "Device Model",
    "Product Title", "Product ID", "Product Type", "SKU ID", "Currency of Sale", "Item Price",
    "Taxes Collected",
    "Charged Amount", "City of Buyer", "State of Buyer", "Postal Code of Buyer", "Country of Buyer",
    "Base Plan ID", "Offer ID",
  ]

  /// The forms a cell of each column takes in variants (valid first, then odd and invalid).
  static let playSalesForms: [String: [String]] = [
    "Order Number": [
      "GPA.1234-5678-9012-34567", "GPA.1234-5678-9012-34567..0", "GPA.1234-5678-9012-34567..12",
      "12345678901234567890",
      "", " GPA.1234-5678-9012-34567 ", "GPA.1234-5678-9012-3456", "gpa.1234-5678-9012-34567",
      "GPA.1234-5678-9012-34567..",
    ],
    "Order Charged Timestamp": [
      "1764000000", "1764000000", " 1764000000", "", "1764000000.5", "-1", "0", "99999999999", "100000000000",
      "1.764e9",
      "+1764000000", "01764000000",
    ],
    "Order Charged Date": ["2026-11-24", "", "2026-02-30", "2026/11/24", "24.11.2026"],
    "Financial Status": ["Charged", "Charged", "Refund", "charged", "REFUND", " Charged ", "Chargeback", ""],
    "Product Type": ["subscription", "inapp", "", "Subscription"],
    "SKU ID": ["pro", "credits_100", "", "com.acme.pro", "caf\u{e9}", "a,b"],
    "Currency of Sale": ["USD", "EUR", "JPY", "usd", "XXX", "", " EUR"],
    "Charged Amount": [
      "4.99", "-4.99", "4.990", "4.999", "4", ".99", "4.", "+4.99", "4.99e0", "", "1,234.00",
      "1234567890123.45", "0",
      "-0.00", " 4.99 ",
    ],
    "Taxes Collected": ["0.80", "", "-0.80", "0.805", "x"],
    "Country of Buyer": ["US", "DE", "us", "USA", "", "ZZ"],
    "Base Plan ID": ["monthly", "", "yearly"],
    "Offer ID": ["", "trial-7d"],
    "Product Title": ["Pro (Acme, monthly)", "The \"Pro\" plan", "Credits, 100", "Caf\u{e9} Pro", "Pro"],
  ]

  /// A CSV cell: quoted when it needs to be (or at random), quotes doubled.
  static func cell(_ text: String, _ r: inout VariantRandom) -> String {
    let needs = text.contains(",") || text.contains("\"") || text.contains("\n")
    guard needs || r.chance(10) else { return text }
    return "\"" + text.replacingOccurrences(of: "\"", with: "\"\"") + "\""
  }

  /// A sales report of `rows` rows: its bytes (header first, columns in a random order unless
  /// `standardOrder`), and each row's bytes with what made it.
  package static func playSalesReport(seed: UInt64, rows: Int, odd: Bool = true, standardOrder: Bool = false)
    -> (file: [UInt8], rows: [Variant])
  {
    var r = VariantRandom(seed: seed)
    let columns = standardOrder ? playSalesColumns : r.shuffled(playSalesColumns)
    var file = columns.map { cell($0, &r) }.joined(separator: ",") + "\n"
    var out: [Variant] = []
    for _ in 0..<rows {
      var values: [String: String] = [
        "Order Number": orderId(&r), "Order Charged Timestamp": String(1_764_000_000 + r.below(1_000_000)),
        "Order Charged Date": "2026-11-24", "Financial Status": r.chance(90) ? "Charged" : "Refund",
        "Device Model": r.pick(["Pixel 8", "SM-G991B"]),
        "Product Title": r.pick(playSalesForms["Product Title"] ?? []), "Product ID": "com.acme.app",
        "Product Type": r.chance(80) ? "subscription" : "inapp", "SKU ID": r.pick(["pro", "credits_100"]),
        "Currency of Sale": r.pick(["USD", "EUR", "JPY"]), "Item Price": "4.99",
        "Taxes Collected": r.chance(50) ? "0.80" : "", "City of Buyer": "Berlin", "State of Buyer": "",
        "Postal Code of Buyer": "10115", "Country of Buyer": r.pick(["US", "DE", "JP"]),
        "Base Plan ID": r.chance(70) ? "monthly" : "", "Offer ID": "",
      ]
      if values["Currency of Sale"] == "JPY" {
        values["Charged Amount"] = "700"
        values["Taxes Collected"] = r.chance(50) ? "112" : ""
      } else {
        values["Charged Amount"] = "4.99"
      }
      var edits: [String] = []
      if odd {
        for _ in 0..<r.below(3) {
          let column = r.pick(Array(playSalesForms.keys).sorted())
          values[column] = r.pick(playSalesForms[column] ?? [""])
          edits.append(column)
        }
      }
      var line = columns.map { cell(values[$0] ?? "", &r) }.joined(separator: ",")
      if odd && r.chance(4) {
        line += r.pick([",extra", "\"", " \"x\"y"])
        edits.append("broken row")
      }
      line += odd && r.chance(10) ? "\r\n" : "\n"
      file += line
      out.append(Variant(bytes: Array(line.utf8), edits: edits))
    }
    return (Array(file.utf8), out)
  }
}

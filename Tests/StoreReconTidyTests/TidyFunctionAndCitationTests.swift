import Testing

/// Rules 3 and 4 on small synthetic inputs.
@Suite("Tidy checkers: function lengths and citations")
struct TidyFunctionAndCitationTests {
  /// A function of exactly `lines` lines: its `func` line, `lines - 2` statements, its closing brace.
  private func function(_ name: String, lines: Int) -> String {
    "  func \(name)() {\n" + String(repeating: "    total += 1\n", count: lines - 2) + "  }\n"
  }

  private func spans(_ text: String) -> [FunctionSpan] {
    FunctionScanner.spans(in: ScannedSource(text).tokens)
  }

  // MARK: 3. Function lengths

  @Test("an 81-line function is flagged, an 80-line one is not")
  func limit() {
    let text = "struct Ledger {\n" + function("short", lines: 80) + function("long", lines: 81) + "}\n"
    let found = spans(text)
    #expect(
      found == [
        FunctionSpan(name: "Ledger.short", line: 2, lines: 80),
        FunctionSpan(name: "Ledger.long", line: 82, lines: 81),
      ])
    let violations = TidyFunctions.check(["Sources/A.swift": found], allowlist: "")
    #expect(
      violations.map(\.description) == ["Sources/A.swift:82: Ledger.long is 81 lines (limit 80): split it"])
  }

  @Test("braces in strings, raw strings, interpolations and comments do not confuse the matcher")
  func bracesInLiterals() {
    let text = #"""
      func tricky() -> String {
        let a = "{ \" {"
        let b = #"} \" {"#
        let c = """
          }}} \""" {
          """
        let d = "\(["}": 1].count) {"
        // }
        /* } /* } */ } */
        return a + b + c + d
      }
      func after() {}
      """#
    #expect(
      spans(text) == [
        FunctionSpan(name: "tricky", line: 1, lines: 11), FunctionSpan(name: "after", line: 12, lines: 1),
      ])
  }

  @Test("names: types, extensions, nested functions, inits, subscripts, computed properties, overloads")
  func names() {
    let text = """
      struct Money {
        var isZero: Bool { minor == 0 }
        init(minor: Int) {}
        func add(_ other: Money) -> Money { self }
        func add(minor: Int) -> Money {
          func helper() {}
          return self
        }
        subscript(index: Int) -> Int { 0 }
        static func == (a: Money, b: Money) -> Bool { true }
        var stored = 1
        deinit {}
      }
      extension Money.Kind where Self: Sendable {
        protocol Inner { func required(); var x: Int { get } }
        func body() {
          for var item in items { item += 1 }
        }
      }
      """
    #expect(
      spans(text).map(\.name) == [
        "Money.isZero", "Money.init", "Money.add(_:)", "Money.add(minor:)", "Money.add.helper",
        "Money.subscript",
        "Money.==", "Money.deinit", "Money.Kind.Inner.x", "Money.Kind.body",
      ])
  }

  @Test("the allowlist: a listed function may shrink, not grow; lines for short or gone ones fail")
  func allowlist() {
    let found = [
      "Sources/A.swift": [
        FunctionSpan(name: "A.grew", line: 10, lines: 120),
        FunctionSpan(name: "A.shrank", line: 200, lines: 90),
        FunctionSpan(name: "A.fixed", line: 300, lines: 60),
      ]
    ]
    let allowlist = """
      # path, name, lines
      Sources/A.swift\tA.grew\t110
      Sources/A.swift\tA.shrank\t95
      Sources/A.swift\tA.fixed\t85
      Sources/A.swift\tA.gone\t99
      Sources/A.swift A.spaces 99
      """
    let list = TidyFunctions.allowlistPath
    #expect(
      TidyFunctions.check(found, allowlist: allowlist).map(\.description) == [
        "\(list):6: expected path<TAB>name<TAB>lines",
        "Sources/A.swift:10: A.grew is 120 lines, longer than the 110 recorded in \(list): shorten it",
        "\(list):4: A.fixed in Sources/A.swift is 60 lines now, within the limit: remove this line",
        "\(list):5: A.gone in Sources/A.swift is gone (renamed or moved?): remove this line",
      ])
    #expect(
      TidyFunctions.allowlist(for: found).hasSuffix(
        "\nSources/A.swift\tA.grew\t120\nSources/A.swift\tA.shrank\t90\n"))
  }

  // MARK: 4. Citations

  private let context = CitationContext(
    files: [
      "README.md", "docs/rules.md", "queries/schema.sql", "Sources/StoreReconCore/Ledger/Chain.swift",
      "bench/x.csv",
    ],
    existsBesideRoot: { $0 == "../shared/NOTES.md" })

  private func cited(_ comment: String) -> [String] {
    let file = TidyFile(path: "Sources/StoreReconCore/A.swift", text: "let x = 1\n" + comment + "\n")
    return TidyCitations.check(file, in: context).map(\.description)
  }

  @Test("a comment citing a missing .md is flagged, at its line")
  func missingDocument() {
    #expect(
      cited("/// The rules of PLAN.md, section 2.") == [
        "Sources/StoreReconCore/A.swift:2: comment cites `PLAN.md`, which is not in the repository "
          + "(looked at the root, docs/, and paths ending in it)"
      ])
    #expect(
      cited("/* see\n   the plan (PLAN.md). */").map { $0.prefix(34) } == [
        "Sources/StoreReconCore/A.swift:3: "
      ])
  }

  @Test("citations of files that exist are not flagged")
  func existingDocuments() {
    #expect(cited("// See README.md, docs/rules.md#orphaned_charge-unclaimed and rules.md#x.") == [])
    #expect(
      cited("// `queries/schema.sql`, ./README.md, Ledger/Chain.swift, Chain.swift, ../shared/NOTES.md") == []
    )
    #expect(cited("// missing: queries/nope.sql ../shared/GONE.md bench/gone.csv").count == 3)
  }

  @Test("placeholders, outputs and input-file names are not citations")
  func exemptions() {
    let comment = """
      // *.csv, `X.swift`, <name>.md, {date}.json, $ROOT/a.sh, findings.csv, reports/daily/x.csv, `.csv`
      // app/entitlements.csv, fx/rates.csv, /etc/ssl/x.sh, https://example.com/a/b.md, e.g. 3.5 and v1.2
      """
    #expect(cited(comment) == [])
  }

  @Test("paths in string literals are not comments")
  func stringsAreNotComments() {
    #expect(cited("let path = \"PLAN.md\" // ok") == [])
  }
}

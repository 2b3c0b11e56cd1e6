import Testing

import StoreReconReports

/// The word-wrapper of summary.txt: 78 columns, words kept whole, continuation lines indented.
struct TextWrapTests {
  @Test func shortLinesStayAsTheyAre() {
    #expect(TextWrap.wrap("a b\n\n  c  \n") == "a b\n\n  c\n")
    #expect(TextWrap.wrapLine("", width: 10) == [""])
  }

  @Test func longLinesBreakAtSpacesWithAHangingIndent() {
    let lines = TextWrap.wrapLine("one two three four five six", width: 10)
    #expect(lines == ["one two", "  three", "  four", "  five six"])
    #expect(lines.allSatisfy { $0.count <= 10 })
    // An indented item's continuation lines are indented two more than the item.
    #expect(TextWrap.wrapLine("  - alpha beta gamma", width: 12) == ["  - alpha", "    beta", "    gamma"])
  }

  @Test func aWordLongerThanTheLineStaysWhole() {
    let long = String(repeating: "x", count: 30)
    #expect(TextWrap.wrapLine("ab \(long) cd", width: 10) == ["ab", "  \(long)", "  cd"])
    #expect(TextWrap.wrapLine(Substring(long), width: 10) == [long])
  }

  @Test func tableRowsBreakBetweenColumns() {
    let row = "  free_entitlement   refunded   20   39.80 BRL, 14.70 CHF"
    #expect(
      TextWrap.wrapLine(Substring(row), width: 40) == [
        "  free_entitlement   refunded   20", "    39.80 BRL, 14.70 CHF",
      ])
  }

  @Test func theFirstItemJoinsBack() {
    let headline =
      "ATTENTION — 2026-11-29: 185 findings — 160 new with money at stake, 22 tie-out differences; "
      + "160 findings (no run history: all new) with money at stake; no thresholds configured"
    let text = TextWrap.wrap(headline + "\nstorerecon 0.1.0 — reconciliation\n  x\n")
    #expect(text.split(separator: "\n").allSatisfy { $0.count <= TextWrap.width })
    #expect(TextWrap.firstItem(of: text) == headline)
    #expect(TextWrap.firstItem(of: "one line\nnext\n") == "one line")
  }
}

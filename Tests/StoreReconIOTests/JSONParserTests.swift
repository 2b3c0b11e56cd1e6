import Testing

@testable import StoreReconIO

@Suite struct JSONParserTests {
  @Test func parsesValues() throws {
    let value = try JSONParser.parse(#" {"a": [1, -2.5e3, true, false, null], "b": {"c": "d"}, "e": ""} "#)
    #expect(value["a"] == .array([.number("1"), .number("-2.5e3"), .bool(true), .bool(false), .null]))
    #expect(value["b"]?["c"]?.stringValue == "d")
    #expect(value["e"]?.stringValue == "")
    #expect(value["missing"] == nil)
  }

  @Test func nullMemberReadsAsAbsent() throws {
    let value = try JSONParser.parse(#"{"x": null}"#)
    #expect(value["x"] == nil)
  }

  @Test func stringEscapes() throws {
    let value = try JSONParser.parse(
      #"["a\"b\\c\/d\b\f\n\r\t", "\u00e9\u20AC", "\ud83c\udf4e", "é"]"#)
    #expect(
      value
        == .array([
          .string("a\"b\\c/d\u{08}\u{0C}\n\r\t"), .string("é€"), .string("🍎"),
          .string("é"),
        ]))
  }

  @Test(arguments: [
    "", "{", "[1,]", "{\"a\" 1}", "01", "1.", "-", "tru", "\"\\x\"", "\"abc", "{} x", "\"a\u{01}\"", "[1 2]",
    "{a:1}",
    "1e",
  ])
  func rejectsInvalidJSON(_ text: String) {
    #expect(throws: JSONError.self) { _ = try JSONParser.parse(text) }
  }

  @Test func errorsSayWhereAndWhat() {
    do {
      _ = try JSONParser.parse("{\"a\": tru}")
      Issue.record("expected an error")
    } catch {
      #expect(error.description == "unexpected 't' at byte 6")
    }
  }

  @Test func depthIsLimited() {
    let deep = String(repeating: "[", count: 300) + String(repeating: "]", count: 300)
    #expect(throws: JSONError.self) { _ = try JSONParser.parse(deep) }
    let fine = String(repeating: "[", count: 100) + String(repeating: "]", count: 100)
    #expect(throws: Never.self) { _ = try JSONParser.parse(fine) }
  }

  @Test func numbersAreExact() {
    #expect(JSONNumber.exactInt64("9223372036854775807") == Int64.max)
    #expect(JSONNumber.exactInt64("-9223372036854775808") == Int64.min)
    #expect(JSONNumber.exactInt64("9223372036854775808") == nil)
    #expect(JSONNumber.exactInt64("12.000") == 12)
    #expect(JSONNumber.exactInt64("1.2e1") == 12)
    #expect(JSONNumber.exactInt64("1697679936049.7297") == nil)
    #expect(JSONNumber.exactInt64("0") == 0)
    #expect(JSONNumber.exactInt64("abc") == nil)
    #expect(JSONNumber.exactInt64("") == nil)
  }

  @Test func numbersRoundToNearest() {
    #expect(JSONNumber.roundedInt64("1697679936049.7297") == 1_697_679_936_050)
    #expect(JSONNumber.roundedInt64("1697679936049.4999") == 1_697_679_936_049)
    #expect(JSONNumber.roundedInt64("1697679936049.5") == 1_697_679_936_050)
    #expect(JSONNumber.roundedInt64("-2.5") == -3)
    #expect(JSONNumber.roundedInt64("0.05") == 0)
    #expect(JSONNumber.roundedInt64("0.5") == 1)
    #expect(JSONNumber.roundedInt64("5e-1") == 1)
    #expect(JSONNumber.roundedInt64("5e-2") == 0)
    #expect(JSONNumber.roundedInt64("1.6976799360497297E12") == 1_697_679_936_050)
    #expect(JSONNumber.roundedInt64("1e400") == nil)
  }

  @Test func intsFromStringsOrNumbers() throws {
    let value = try JSONParser.parse(#"{"a": "1704112948000", "b": 17, "c": "x", "d": 1.5}"#)
    #expect(value["a"]?.int64Value == 1_704_112_948_000)
    #expect(value["b"]?.int64Value == 17)
    #expect(value["c"]?.int64Value == nil)
    #expect(value["d"]?.int64Value == nil)
    #expect(value["d"]?.roundedInt64Value == 2)
  }

  @Test func base64URL() {
    #expect(Base64URL.decode("aGVsbG8") == Array("hello".utf8))
    #expect(Base64URL.decode("aGVsbG8=") == Array("hello".utf8))
    #expect(Base64URL.decode("-_8") == [0xFB, 0xFF])
    #expect(Base64URL.decode("+/8") == [0xFB, 0xFF])
    #expect(Base64URL.decode("") == [])
    #expect(Base64URL.decode("a") == nil)
    #expect(Base64URL.decode("a*bc") == nil)
  }

  @Test func jwsPayload() throws {
    let compact = "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln"
    #expect(JWS.payload(compact) == Array(#"{"a":1}"#.utf8))
    #expect(try JWS.decodedPayload(compact)["a"]?.int64Value == 1)
    #expect(JWS.payload("a.b") == nil)
    #expect(JWS.payload("a.b.c.d") == nil)
    #expect(throws: JSONError.self) { _ = try JWS.decodedPayload("x.bm90IGpzb24.y") }
  }
}

import Testing

@testable import StoreReconIO

@Suite struct UTF8ValidationTests {
  func problem(_ bytes: [UInt8]) -> UTF8Validation.Problem? {
    bytes.withUnsafeBufferPointer(UTF8Validation.problem)
  }

  @Test func validTextOfEveryLengthPasses() {
    for text in [
      "", "a", "plain ascii longer than eight bytes", "é", "€uro", "🍎 apple", "日本語のテキスト", "x\u{10FFFF}",
    ] {
      #expect(problem(Array(text.utf8)) == nil, "\(text)")
    }
  }

  @Test(
    arguments: [
      ([0xE9], 0),  // Latin-1 é
      ([0x61, 0x62, 0xC3], 2),  // cut short
      ([0xC0, 0xAF], 0),  // overlong '/'
      ([0xE0, 0x80, 0xAF], 0),  // overlong
      ([0xF0, 0x80, 0x80, 0xAF], 0),  // overlong
      ([0xED, 0xA0, 0x80], 0),  // a surrogate U+D800
      ([0xF4, 0x90, 0x80, 0x80], 0),  // above U+10FFFF
      ([0xF5, 0x80, 0x80, 0x80], 0),
      ([0x80], 0),  // a continuation byte first
      ([0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49, 0xFF], 9),  // after a whole ASCII word
      ([0xE2, 0x82, 0x41], 0),  // a sequence broken by ASCII
    ] as [([UInt8], Int)])
  func invalidBytesAreFoundAtTheirOffset(bytes: [UInt8], offset: Int) {
    #expect(problem(bytes) == UTF8Validation.Problem(offset: offset, isNUL: false))
    #expect(problem(bytes)?.reason == "invalid UTF-8 at byte \(offset)")
  }

  @Test func aNULByteIsFoundInAWordAndAfterIt() {
    for offset in [0, 3, 7, 8, 15, 20] {
      var bytes = Array(repeating: UInt8(0x61), count: 24)
      bytes[offset] = 0
      #expect(problem(bytes) == UTF8Validation.Problem(offset: offset, isNUL: true))
      #expect(problem(bytes)?.reason == "NUL byte at byte \(offset)")
    }
  }

  /// Random byte strings against the standard library's own validation (which accepts NUL).
  @Test func agreesWithTheStandardLibraryOnRandomBytes() {
    var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let alphabet: [UInt8] = [
      0x41, 0x7A, 0x00, 0x80, 0xBF, 0xC2, 0xC0, 0xDF, 0xE0, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xA0, 0x9F, 0x90,
      0x8F,
    ]
    for _ in 0..<20_000 {
      let count = Int(next() % 24)
      let bytes = (0..<count).map { _ in alphabet[Int(next() % UInt64(alphabet.count))] }
      let stdlibValid = String(validating: bytes, as: UTF8.self) != nil
      let found = problem(bytes)
      let expected = stdlibValid && !bytes.contains(0)
      #expect((found == nil) == expected, "\(bytes)")
      if let found, stdlibValid { #expect(found.isNUL && bytes[found.offset] == 0) }
      if let found, !found.isNUL {
        // Everything before the offset is valid, the sequence at the offset is not.
        #expect(String(validating: bytes[..<found.offset], as: UTF8.self) != nil)
      }
    }
  }
}

extension UTF8ValidationTests {
  /// Long rows: runs of ASCII longer than a word between multi-byte characters, broken sequences and
  /// NULs anywhere, against the standard library (the word-wise skip resumes after each multi-byte
  /// character, and must still find the first problem).
  @Test func longRowsAgreeWithByteByByteChecks() {
    var state: UInt64 = 0x2545_F491_4F6C_DD1D
    func next() -> UInt64 {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return state >> 33
    }
    let pieces: [[UInt8]] = [
      Array("plain ascii text, ".utf8), Array("é".utf8), Array("€".utf8), Array("🍎".utf8), [0x41], [0x00],
      [0xC3], [0xE2, 0x82], [0x80], [0xED, 0xA0, 0x80], Array(String(repeating: "x", count: 40).utf8),
    ]
    var invalid = 0
    for _ in 0..<5_000 {
      var bytes: [UInt8] = []
      for _ in 0..<Int(next() % 12) {
        // Mostly valid pieces, so that rows are long and valid often enough.
        let k = Int(next() % 40)
        bytes += k < 30 ? pieces[k % 4 == 0 ? 10 : [0, 1, 2, 3, 4][k % 5]] : pieces[k % pieces.count]
      }
      let found = problem(bytes)
      let expected = String(validating: bytes, as: UTF8.self) != nil && !bytes.contains(0)
      #expect((found == nil) == expected, "\(bytes)")
      if let found {
        invalid += 1
        // The first problem: everything before it is valid without NUL, and the byte there is a NUL or
        // starts no valid sequence.
        let before = bytes[..<found.offset]
        #expect(String(validating: before, as: UTF8.self) != nil && !before.contains(0), "\(bytes)")
        #expect(found.isNUL == (bytes[found.offset] == 0), "\(bytes)")
      }
    }
    #expect(invalid > 500 && invalid < 4_500)
  }
}

@Suite struct JSONMemberNamesTests {
  func insertAll(_ names: [String]) -> [Bool] {
    let bytes = names.map { Array($0.utf8) }
    return JSONMemberNames.with { set in
      bytes.map { name in name.withUnsafeBufferPointer { set.insert($0) } }
    }
  }

  @Test func distinctNamesWithinTheCapacityAreNew() {
    let names = (0..<JSONMemberNames.capacity).map { "field\($0)" }
    #expect(insertAll(names).allSatisfy { $0 })
  }

  @Test func aRepeatedNameIsCaughtWhereverItIs() {
    for k in [0, 5, 20, JSONMemberNames.capacity - 1] {
      var names = (0..<JSONMemberNames.capacity).map { "n\($0)" }
      names.append(names[k])
      #expect(insertAll(names).last == false, "repeat of \(k)")
      #expect(insertAll(["", ""]) == [true, false])
    }
  }
}

@Suite struct FastPathRepeatedNameTests {
  @Test func bothScannersDeclineAnObjectThatRepeatsAName() {
    let flat = Array(#"{"a":1,"b":2,"a":3}"#.utf8)
    #expect(flat.withUnsafeBufferPointer { FlatJSONScanner.scan($0) { _, _ in } } == false)
    let nested = Array(#"{"x":{"k":1,"k":2},"y":[{"k":1},{"k":2}]}"#.utf8)
    #expect(nested.withUnsafeBufferPointer { JSONSpanScanner.validate($0) } == nil)
    let fine = Array(#"{"x":{"k":1},"y":[{"k":1},{"k":2}],"k":0}"#.utf8)
    #expect(fine.withUnsafeBufferPointer { JSONSpanScanner.validate($0) } != nil)
    #expect(throws: JSONError.self) { try JSONParser.parse(nested) }
  }
}

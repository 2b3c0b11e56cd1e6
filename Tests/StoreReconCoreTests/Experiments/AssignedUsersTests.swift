import Testing
import StoreReconTestSupport

@testable import StoreReconCore

/// User ids ordered and found as `String` orders and compares them, through ``IdentifierKey`` and the
/// ordered search of ``AssignedUsers``.
@Suite struct AssignedUsersTests {
  /// Ids that stress the short-ASCII fast path: prefixes, NUL bytes, 16/17-byte ids sharing their first
  /// 16 bytes, upper case, and non-ASCII text that Swift compares by canonical equivalence (U+212A
  /// KELVIN SIGN equals `K`; `é` precomposed equals `e` + U+0301, also after 16 ASCII bytes).
  static let ids: [String] = [
    "", "a", "ab", "ab\u{0}", "ab\u{0}x", "abc", "abd", "b", "u0000004", "u0000005", "u0000040", "U0000004",
    "0123456789abcdef", "0123456789abcdefg", "0123456789abcdeg", "0123456789abcdef0", "0123456789abcdefé",
    "0123456789abcdee\u{301}", "0123456789abcde\u{E9}", "0123456789abcdee", "K", "\u{212A}", "k", "caf\u{E9}",
    "cafe\u{301}", "cafe", "zz", "~", "\u{7F}", "\u{80}", "日本", "7a1f3c2e-0000-4000-8000-00000000000a",
  ]

  static func sign(_ x: Int) -> Int { x < 0 ? -1 : (x > 0 ? 1 : 0) }

  @Test func keysOrderIdsAsStringDoes() {
    for a in Self.ids {
      for b in Self.ids {
        let expected = a < b ? -1 : (a == b ? 0 : 1)
        let got = IdentifierKey.compare(a, IdentifierKey(a), b, IdentifierKey(b))
        #expect(Self.sign(got) == expected, "\(a.debugDescription) vs \(b.debugDescription)")
      }
    }
  }

  static func users(_ ids: [String]) -> AssignedUsers {
    AssignedUsers(
      experiment: Ex.experiment,
      assignments: ids.map { Ex.assign($0, "control", "2026-09-02T00:00:00Z") }, asOf: Fx.t,
      dayOf: Ex.utcDay)
  }

  @Test func usersAreNumberedInIdOrderAndFoundFromAnyPlace() throws {
    // Assigned in reverse order; ids equal under canonical equivalence are one user.
    let assigned = Self.users(Self.ids.reversed())
    let distinct = Self.ids.reduce(into: [String]()) { list, id in
      if !list.contains(id) { list.append(id) }
    }
    #expect(assigned.users.count == distinct.count)
    #expect(zip(assigned.users, assigned.users.dropFirst()).allSatisfy { $0 < $1 })
    #expect(assigned.repeated == Self.ids.count - distinct.count)
    for id in Self.ids {
      let n = try #require(assigned.number(of: id), "\(id.debugDescription)")
      #expect(assigned.users[Int(n)] == id)
      // From every starting place, behind or ahead.
      for start in [0, 1, Int(n), Int(n) + 1, assigned.users.count / 2, assigned.users.count] {
        var cursor = start
        #expect(assigned.number(of: id, from: &cursor) == n)
        #expect(cursor == Int(n))
      }
    }
    for missing in ["aa", "u0000006", "0123456789abcdef1", "\u{212B}", "zzz", "A"] {
      var cursor = 3
      #expect(assigned.number(of: missing, from: &cursor) == nil, "\(missing)")
      #expect(assigned.number(of: missing) == nil)
    }
  }

  @Test func idsInAscendingOrderAreFoundByStepping() {
    // A long run of ascending ids, some assigned: found or not with the cursor moving forward.
    let all = (0..<5000).map { "u" + String(100_000 + $0) }
    let assignedIds = all.enumerated().filter { $0.offset % 3 == 0 }.map(\.element)
    let assigned = Self.users(assignedIds)
    var cursor = 0
    for (i, id) in all.enumerated() {
      let n = assigned.number(of: id, from: &cursor)
      #expect((n != nil) == (i % 3 == 0))
      if let n { #expect(assigned.users[Int(n)] == id) }
    }
  }

  @Test func tokensMatchExactlyOrIgnoringCase() {
    let assigned = Self.users(["AbC-1", "abc-1", "Q7", "q7x", "K"])
    #expect(assigned.number(matchingToken: "AbC-1").map { assigned.users[Int($0)] } == "AbC-1")
    // Lower-cased token matching both an all-lower-case id and a folded one: the smaller id.
    #expect(assigned.number(matchingToken: "ABC-1").map { assigned.users[Int($0)] } == "AbC-1")
    #expect(assigned.number(matchingToken: "q7").map { assigned.users[Int($0)] } == "Q7")
    #expect(assigned.number(matchingToken: "\u{212A}").map { assigned.users[Int($0)] } == "K")
    #expect(assigned.number(matchingToken: "zz") == nil)
  }
}

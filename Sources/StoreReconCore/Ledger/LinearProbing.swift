/// The invariants every open-addressing table of the ledger keeps (``PackedIndex``, ``ChainKeyIndex``,
/// ``TextPool``): a power-of-two number of slots, linear probing from a key's home slot, at most half
/// full. Checked from the outside of one table, slot by slot, for tests and debugging — never on a hot
/// path (a check walks every key's whole probe).
enum LinearProbing {
  /// One table's shape and its keys, as seen through the table's own slots.
  struct Table {
    /// What the messages call the table (`PackedIndex`, `TextPool "names"`…).
    var name: String
    var slotCount: Int
    /// The slot position mask the table keeps (`slotCount - 1`; anything for an empty table).
    var mask: Int
    /// The keys the table says it holds (its count, or the keys that should be in the slots).
    var count: Int
    /// The fewest slots a table that has any allocates.
    var minimumSlots: Int
    /// Whether slot `i` holds a key.
    var occupied: (Int) -> Bool
    /// The home slot of the key slot `i` holds.
    var home: (Int) -> Int
    /// Whether slots `i` and `j` hold the same key.
    var same: (Int, Int) -> Bool
    /// Whether the table's own look-up of slot `i`'s key answers slot `i`'s value.
    var found: (Int) -> Bool
    /// Slot `i`'s key, for messages.
    var describe: (Int) -> String
  }

  /// What is wrong with `table` (nothing: empty): the slot count a power of two, at least the minimum
  /// and matching the mask; the occupied slots as many as the keys the table counts, and at most half of
  /// the slots; every key reached by its probe (no empty slot between its home and its slot), found there
  /// by the table's look-up, and stored once (no slot on its probe holds it too).
  static func problems(_ table: Table) -> [String] {
    var problems: [String] = []
    let n = table.slotCount
    guard n > 0 else {
      if table.count != 0 { problems.append("\(table.name): no slots but \(table.count) keys counted") }
      return problems
    }
    if n & (n - 1) != 0 { problems.append("\(table.name): \(n) slots is not a power of two") }
    if n < table.minimumSlots { problems.append("\(table.name): \(n) slots, below \(table.minimumSlots)") }
    if table.mask != n - 1 { problems.append("\(table.name): mask \(table.mask) for \(n) slots") }
    guard problems.isEmpty else { return problems }
    var occupied = 0
    for i in 0..<n where table.occupied(i) {
      occupied += 1
      problems += probeProblems(table, slot: i)
    }
    if occupied != table.count {
      problems.append("\(table.name): \(occupied) occupied slots but \(table.count) keys counted")
    }
    if occupied * 2 > n {
      problems.append("\(table.name): \(occupied) keys in \(n) slots, over the load bound of 1/2")
    }
    return problems
  }

  /// What is wrong with the probe that reaches slot `i` from its key's home slot.
  private static func probeProblems(_ table: Table, slot i: Int) -> [String] {
    let name = table.name
    let home = table.home(i)
    guard home >= 0 && home < table.slotCount else {
      return ["\(name): slot \(i) (\(table.describe(i))): home slot \(home) is outside the table"]
    }
    var problems: [String] = []
    var j = home
    while j != i {
      if !table.occupied(j) {
        problems.append(
          "\(name): slot \(i) (\(table.describe(i))) is misplaced: empty slot \(j) between its home "
            + "\(home) and it, so a look-up stops before it")
        break
      }
      if table.same(j, i) {
        problems.append("\(name): \(table.describe(i)) is stored twice, in slots \(j) and \(i)")
      }
      j = (j + 1) & table.mask
    }
    if !table.found(i) {
      problems.append("\(name): a look-up of \(table.describe(i)) does not answer what slot \(i) holds")
    }
    return problems
  }
}

/// The members of one JSON object, collected so that the realistic world can write them in any of
/// the orders real writers use.
struct DemoJSONMembers {
  /// Name and rendered value of each member, in the order they were added.
  private(set) var members: [(name: String, value: [UInt8])] = []

  /// Adds a member whose value is already JSON text (a number, `true`, an object …).
  mutating func raw(_ name: String, _ value: String) { members.append((name, Array(value.utf8))) }

  /// Adds a member whose value is already JSON bytes.
  mutating func raw(_ name: String, bytes: [UInt8]) { members.append((name, bytes)) }

  /// Adds a string member.
  mutating func text(_ name: String, _ value: String) {
    var line = DemoLine()
    line.json(value)
    members.append((name, line.bytes))
  }

  /// Adds an integer member.
  mutating func int(_ name: String, _ value: Int64) { raw(name, String(value)) }

  /// The orders a line's members come in.
  enum Order: CaseIterable {
    /// As added (Apple's documented order).
    case asAdded
    /// Sorted by name (`sort_keys`, Go maps, canonical JSON).
    case sorted
    /// The first member moved after the second (`originalTransactionId` first, as in Apple's samples).
    case secondFirst
    /// Shuffled.
    case shuffled
  }

  /// Appends the object, members in `order`, compact.
  func write(_ order: Order, into line: inout DemoLine, _ rng: inout DemoRandom) {
    var list = members
    switch order {
    case .asAdded: break
    case .sorted: list.sort { $0.name < $1.name }
    case .secondFirst: if list.count >= 2 { list.swapAt(0, 1) }
    case .shuffled: rng.shuffle(&list)
    }
    line.byte(0x7B)
    for (i, member) in list.enumerated() {
      if i > 0 { line.byte(0x2C) }
      line.json(member.name)
      line.byte(0x3A)
      line.bytes.append(contentsOf: member.value)
    }
    line.byte(0x7D)
  }
}

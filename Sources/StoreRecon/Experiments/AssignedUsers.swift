/// The users of one experiment and their arms: each user's first valid assignment (intention to treat).
///
/// An assignment row is valid when its `assigned_at` falls on an enrolment day (config time zone),
/// at or before T, and it names a configured arm. A user's first valid row (earliest `assigned_at`,
/// ties by arm id) is their arm for the whole readout; later rows are counted, never used.
///
/// Users are numbered in the order of their ids (`String` order), so number order is id order. Kept
/// packed: the ids, and per number the arm and the assignment instant; ids are found through an
/// open-addressing table of numbers (short ASCII ids, by their ``IdentifierKey``) and a dictionary for
/// any other id.
struct AssignedUsers {
  /// Every assigned user's id, by number (ascending in `String` order).
  private(set) var users: [String] = []
  /// Per user number: the arm (index into the experiment's arms).
  private(set) var arms: [UInt16] = []
  /// Per user number: the assignment instant (ms).
  private(set) var assignedAt: [Int64] = []
  /// Numbers of the users with short ASCII ids: 0 empty, else number + 1.
  private var slots: [Int32] = []
  private var mask = 0
  /// Numbers of the users with any other id.
  private var others: [String: Int32] = [:]
  /// Lower-cased user id → user id, for account tokens written in another case.
  /// Kept only for ids with upper-case letters: an all-lower-case id folds to itself.
  private var folded: [String: String] = [:]
  /// Rows outside the enrolment days or after T; rows naming unknown arms; later rows of an assigned
  /// user; users whose later rows name a different arm.
  private(set) var outsideWindow = 0
  private(set) var unknownArm = 0
  private(set) var repeated = 0
  private(set) var reassignedUsers = 0

  /// A look-up's outcome.
  enum Lookup: Equatable {
    case found(Int32)
    case absent
    /// A non-ASCII id that may equal a short ASCII id under canonical equivalence (U+212A KELVIN SIGN
    /// is `K`): look it up in ``fullIndex()``.
    case unresolved
  }

  /// One valid row while sorting.
  private struct Row {
    var key: IdentifierKey
    var at: Int64
    var row: Int32
    var arm: UInt16
    /// The rank of the arm's id among the arms' ids (ties by arm id).
    var armRank: UInt16
  }

  init(
    experiment: Experiment, assignments: [Assignment], asOf t: Instant, dayOf: (Instant) -> CivilDate
  ) {
    let armIds = experiment.arms.map(\.id)
    let armRanks = armIds.map { id in UInt16(armIds.filter { $0 < id }.count) }
    var valid: [Row] = []
    assignments.withUnsafeBufferPointer { rows in
      for i in rows.indices where rows[i].experimentId == experiment.id {
        let at = rows[i].assignedAt
        let day = dayOf(at)
        guard at <= t, day >= experiment.enrollStart, day <= experiment.enrollEnd else {
          outsideWindow += 1
          continue
        }
        // The first arm with this id (String == compares equal small strings by their bits).
        guard let arm = armIds.firstIndex(of: rows[i].armId) else {
          unknownArm += 1
          continue
        }
        valid.append(
          Row(
            key: IdentifierKey(rows[i].userId), at: at.ms, row: Int32(i), arm: UInt16(arm),
            armRank: armRanks[arm]))
      }
      // By user id, then assignment instant, then arm id (then row, which only keeps the order stable).
      valid.sort { x, y in
        let c = IdentifierKey.compare(rows[Int(x.row)].userId, x.key, rows[Int(y.row)].userId, y.key)
        if c != 0 { return c < 0 }
        if x.at != y.at { return x.at < y.at }
        if x.armRank != y.armRank { return x.armRank < y.armRank }
        return x.row < y.row
      }
      var capacity = 16
      while capacity < valid.count * 2 { capacity <<= 1 }
      slots = [Int32](repeating: 0, count: capacity)
      mask = capacity - 1
      users.reserveCapacity(valid.count)
      arms.reserveCapacity(valid.count)
      assignedAt.reserveCapacity(valid.count)
      var previous: Row?
      var reassigned = false
      for v in valid {
        let id = rows[Int(v.row)].userId
        if let p = previous, IdentifierKey.compare(rows[Int(p.row)].userId, p.key, id, v.key) == 0 {
          repeated += 1
          if Int(v.arm) != Int(arms[arms.count - 1]) { reassigned = true }
          continue
        }
        if reassigned { reassignedUsers += 1 }
        reassigned = false
        previous = v
        let number = Int32(users.count)
        users.append(id)
        arms.append(v.arm)
        assignedAt.append(v.at)
        if v.key.isWhole {
          var s = v.key.hash & mask
          while slots[s] != 0 { s = (s + 1) & mask }
          slots[s] = number + 1
        } else {
          others[id] = number
        }
        if !v.key.isASCII || id.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
          let key = id.lowercased()
          folded[key] = min(folded[key] ?? id, id)
        }
      }
      if reassigned { reassignedUsers += 1 }
    }
  }

  /// The number of the user whose id is `id` (`String` equality).
  func number(of id: String) -> Lookup {
    let key = IdentifierKey(id)
    if key.isASCII {
      if key.isWhole {
        var s = key.hash & mask
        while !slots.isEmpty {
          let n = slots[s]
          if n == 0 { break }
          if users[Int(n - 1)] == id { return .found(n - 1) }
          s = (s + 1) & mask
        }
      }
      // A long ASCII id, or a non-ASCII id equal to this one.
      if !others.isEmpty, let n = others[id] { return .found(n) }
      return .absent
    }
    if let n = others[id] { return .found(n) }
    return others.count < users.count ? .unresolved : .absent
  }

  /// Every user's number by id: the look-up for ids that ``number(of:)`` leaves unresolved.
  func fullIndex() -> [String: Int32] {
    var index: [String: Int32] = [:]
    index.reserveCapacity(users.count)
    for (n, id) in users.enumerated() { index[id] = Int32(n) }
    return index
  }

  /// `id`'s number, through `full` when given.
  func number(of id: String, full: [String: Int32]?) -> Lookup {
    guard let full else { return number(of: id) }
    return full[id].map { .found($0) } ?? .absent
  }

  /// The assigned user an account token names, if any: the user whose id is the token, else one whose
  /// id is the token ignoring case (the smallest such id).
  func number(matchingToken token: String, full: [String: Int32]? = nil) -> Lookup {
    let exact = number(of: token, full: full)
    if exact != .absent { return exact }
    let key = token.lowercased()
    var same: String?
    if key.lowercased() == key {
      switch number(of: key, full: full) {
      case .found: same = key
      case .unresolved: return .unresolved
      case .absent: break
      }
    }
    let chosen: String?
    switch (same, folded[key]) {
    case (let a?, let b?): chosen = min(a, b)
    case (let a?, nil): chosen = a
    case (nil, let b): chosen = b
    }
    guard let chosen else { return .absent }
    return number(of: chosen, full: full)
  }

  /// Assigned users per arm.
  func counts(arms count: Int) -> [Int] {
    var counts = Array(repeating: 0, count: count)
    for arm in arms { counts[Int(arm)] += 1 }
    return counts
  }
}

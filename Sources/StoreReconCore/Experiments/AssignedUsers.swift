/// The users of one experiment and their arms: each user's first valid assignment (intention to treat).
///
/// An assignment row is valid when its `assigned_at` falls on an enrolment day (config time zone),
/// at or before T, and it names a configured arm. A user's first valid row (earliest `assigned_at`,
/// ties by arm id) is their arm for the whole readout; later rows are counted, never used.
///
/// Users are numbered in the order of their ids (`String` order), so number order is id order, and an
/// id is found by searching the ordered ids. Kept packed: the ids, and per number the arm and the
/// assignment instant.
package struct AssignedUsers {
  /// Every assigned user's id, by number (ascending in `String` order).
  private(set) var users: [String] = []
  /// Per user number: the arm (index into the experiment's arms).
  private(set) var arms: [UInt16] = []
  /// Per user number: the assignment instant (ms).
  private(set) var assignedAt: [Int64] = []
  /// Lower-cased user id → user id, for account tokens written in another case.
  /// Kept only for ids with upper-case letters: an all-lower-case id folds to itself.
  private var folded: [String: String] = [:]
  /// Rows outside the enrolment days or after T; rows naming unknown arms; later rows of an assigned
  /// user; users whose later rows name a different arm.
  private(set) var outsideWindow = 0
  private(set) var unknownArm = 0
  private(set) var repeated = 0
  private(set) var reassignedUsers = 0

  /// One valid row while sorting.
  private struct Row {
    /// The user id's key.
    package var key: IdentifierKey
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
    let rows = assignments
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
      users.append(id)
      arms.append(v.arm)
      assignedAt.append(v.at)
      if !v.key.isASCII || id.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) {
        let key = id.lowercased()
        folded[key] = min(folded[key] ?? id, id)
      }
    }
    if reassigned { reassignedUsers += 1 }
  }

  /// The number of the user whose id is `id` (`String` equality): a binary search of the ids.
  func number(of id: String) -> Int32? {
    var cursor = users.count
    return number(of: id, from: &cursor)
  }

  /// The number of the user whose id is `id` (`String` equality), searched in the ids' order from
  /// `cursor`, the place of the previous id searched: a few steps forward when ids come in ascending
  /// order (as app exports sorted by user do), a binary search otherwise. Moves `cursor` to the place
  /// of `id` among the users.
  ///
  /// - Parameters:
  ///   - keys: the users' ``IdentifierKey``s (``keys()``), when at hand.
  func number(of id: String, keys: [IdentifierKey]? = nil, from cursor: inout Int) -> Int32? {
    let key = IdentifierKey(id)
    let count = users.count
    @inline(__always) func order(_ i: Int) -> Int {
      let other = users[i]
      return IdentifierKey.compare(other, keys?[i] ?? IdentifierKey(other), id, key)
    }
    var i = min(max(cursor, 0), count)
    if i > 0 && order(i - 1) >= 0 {
      // Behind the previous id: the first place at or after `id` is before the cursor.
      var low = 0
      var high = i - 1
      while low < high {
        let middle = (low + high) / 2
        if order(middle) < 0 { low = middle + 1 } else { high = middle }
      }
      i = low
    } else {
      var steps = 0
      while i < count && steps < 8 && order(i) < 0 {
        i += 1
        steps += 1
      }
      if i < count && steps == 8 && order(i) < 0 {
        var low = i + 1
        var high = count
        while low < high {
          let middle = (low + high) / 2
          if order(middle) < 0 { low = middle + 1 } else { high = middle }
        }
        i = low
      }
    }
    cursor = i
    return i < count && order(i) == 0 ? Int32(i) : nil
  }

  /// Every user's number by id (the first of ids that are equal as `String`s).
  func index() -> [String: Int32] {
    var index = [String: Int32](minimumCapacity: users.count)
    for (i, id) in users.enumerated() where index[id] == nil { index[id] = Int32(i) }
    return index
  }

  /// Every user's ``IdentifierKey``, by number.
  func keys() -> [IdentifierKey] { users.map(IdentifierKey.init) }

  /// The assigned user an account token names, if any: the user whose id is the token, else one whose
  /// id is the token ignoring case (the smallest such id).
  func number(matchingToken token: String) -> Int32? {
    if let n = number(of: token) { return n }
    let key = token.lowercased()
    let same = key.lowercased() == key && number(of: key) != nil ? key : nil
    let chosen: String?
    switch (same, folded[key]) {
    case (let a?, let b?): chosen = min(a, b)
    case (let a?, nil): chosen = a
    case (nil, let b): chosen = b
    }
    return chosen.flatMap { number(of: $0) }
  }

  /// Assigned users per arm.
  func counts(arms count: Int) -> [Int] {
    var counts = Array(repeating: 0, count: count)
    for arm in arms { counts[Int(arm)] += 1 }
    return counts
  }
}

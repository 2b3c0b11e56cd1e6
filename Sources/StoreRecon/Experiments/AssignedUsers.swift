/// The users of one experiment and their arms: each user's first valid assignment (intention to treat).
///
/// An assignment row is valid when its `assigned_at` falls on an enrolment day (config time zone),
/// at or before T, and it names a configured arm. A user's first valid row (earliest `assigned_at`,
/// ties by arm id) is their arm for the whole readout; later rows are counted, never used.
struct AssignedUsers {
  /// A user's arm (index into the experiment's arms) and assignment instant.
  struct Entry {
    var at: Instant
    /// The user's number: its index in ``users``.
    var number: Int32
    private var armNumber: UInt16

    init(arm: Int, at: Instant, number: Int32) {
      self.at = at
      self.number = number
      armNumber = UInt16(truncatingIfNeeded: arm)
    }

    /// The arm (index into the experiment's arms).
    var arm: Int { Int(armNumber) }
  }

  /// Users by id.
  private(set) var entries: [String: Entry] = [:]
  /// Every assigned user's id, by number.
  private(set) var users: [String] = []
  /// Lower-cased user id → user id, for account tokens written in another case.
  /// Kept only for ids with upper-case letters: an all-lower-case id folds to itself.
  private var folded: [String: String] = [:]
  /// Rows outside the enrolment days or after T; rows naming unknown arms; later rows of an assigned
  /// user; users whose later rows name a different arm.
  private(set) var outsideWindow = 0
  private(set) var unknownArm = 0
  private(set) var repeated = 0
  private(set) var reassignedUsers = 0

  init(
    experiment: Experiment, assignments: [Assignment], asOf t: Instant, dayOf: (Instant) -> CivilDate
  ) {
    var armIndex: [String: Int] = [:]
    for (i, arm) in experiment.arms.enumerated() where armIndex[arm.id] == nil { armIndex[arm.id] = i }
    var valid: [Int32] = []
    for (i, row) in assignments.enumerated() where row.experimentId == experiment.id {
      let day = dayOf(row.assignedAt)
      guard row.assignedAt <= t, day >= experiment.enrollStart, day <= experiment.enrollEnd else {
        outsideWindow += 1
        continue
      }
      guard armIndex[row.armId] != nil else {
        unknownArm += 1
        continue
      }
      valid.append(Int32(i))
    }
    valid.sort {
      let a = assignments[Int($0)]
      let b = assignments[Int($1)]
      return (a.userId, a.assignedAt, a.armId) < (b.userId, b.assignedAt, b.armId)
    }
    users.reserveCapacity(valid.count)
    var reassigned: Set<String> = []
    for i in valid {
      let row = assignments[Int(i)]
      guard let arm = armIndex[row.armId] else { continue }
      if let first = entries[row.userId] {
        repeated += 1
        if first.arm != arm { reassigned.insert(row.userId) }
        continue
      }
      entries[row.userId] = Entry(arm: arm, at: row.assignedAt, number: Int32(users.count))
      users.append(row.userId)
      if row.userId.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A })
        || !row.userId.utf8.allSatisfy({ $0 < 0x80 })
      {
        let key = row.userId.lowercased()
        folded[key] = min(folded[key] ?? row.userId, row.userId)
      }
    }
    reassignedUsers = reassigned.count
  }

  /// The assigned user an account token names, if any.
  func user(matchingToken token: String) -> String? {
    if entries[token] != nil { return token }
    let key = token.lowercased()
    let same = entries[key] != nil && key.lowercased() == key ? key : nil
    switch (same, folded[key]) {
    case (let a?, let b?): return min(a, b)
    case (let a?, nil): return a
    case (nil, let b): return b
    }
  }

  /// Assigned users per arm.
  func counts(arms: Int) -> [Int] {
    var counts = Array(repeating: 0, count: arms)
    for entry in entries.values { counts[entry.arm] += 1 }
    return counts
  }
}

extension RecordBatch {
  /// Calls `body` with the input line, namespace and chain key of every record and Play resource
  /// whose line is known, records first (lines count from the input's start).
  package func forEachKeyedLine(_ body: (_ line: Int, _ space: Space, _ key: String) -> Void) {
    for i in records.indices where i < lines.count && lines[i] != 0 {
      body(lineOffset + Int(lines[i]), spaces[i], keys[i].string(pool: texts))
    }
    for i in statuses.indices where i < statusLines.count && statusLines[i] != 0 {
      body(lineOffset + Int(statusLines[i]), statusSpaces[i], statusKeys[i].string(pool: texts))
    }
  }

  /// Keeps only the records and Play resources whose chain `keep` accepts (namespace, chain key), in
  /// their order, with everything that goes with them (side fields, order ids, lines). The counters a
  /// run reports per input (first and last instant, unverified and unpriced lines) stay as read: every
  /// partition reports the whole input.
  package func retain(_ keep: (Space, String) -> Bool) {
    var decided: [PackedID: Bool] = [:]
    func kept(_ space: Space, _ key: PackedID) -> Bool {
      if let known = decided[key] { return known }
      let answer = keep(space, key.string(pool: texts))
      decided[key] = answer
      return answer
    }
    var newNumber = [Int](repeating: -1, count: records.count)
    var n = 0
    for i in records.indices where kept(spaces[i], keys[i]) {
      newNumber[i] = n
      if n != i {
        records[n] = records[i]
        keys[n] = keys[i]
        spaces[n] = spaces[i]
        tokenNumbers[n] = tokenNumbers[i]
        originals[n] = originals[i]
        if i < lines.count { lines[n] = lines[i] }
      }
      n += 1
    }
    let recordCount = records.count
    records.removeLast(recordCount - n)
    keys.removeLast(recordCount - n)
    spaces.removeLast(recordCount - n)
    tokenNumbers.removeLast(recordCount - n)
    originals.removeLast(recordCount - n)
    if lines.count > n { lines.removeLast(lines.count - n) }
    var newRare: [Int: RareFields] = [:]
    for (i, fields) in rare where newNumber[i] >= 0 { newRare[newNumber[i]] = fields }
    rare = newRare
    recordBases = recordBases.compactMap { newNumber[$0.record] >= 0 ? (newNumber[$0.record], $0.base) : nil }
    retainStatuses { kept($0, $1) }
  }

  private func retainStatuses(_ kept: (Space, PackedID) -> Bool) {
    var newNumber = [Int](repeating: -1, count: statuses.count)
    var n = 0
    for i in statuses.indices where kept(statusSpaces[i], statusKeys[i]) {
      newNumber[i] = n
      if n != i {
        statuses[n] = statuses[i]
        statusKeys[n] = statusKeys[i]
        statusSpaces[n] = statusSpaces[i]
        if i < statusLines.count { statusLines[n] = statusLines[i] }
      }
      n += 1
    }
    let statusCount = statuses.count
    statuses.removeLast(statusCount - n)
    statusKeys.removeLast(statusCount - n)
    statusSpaces.removeLast(statusCount - n)
    if statusLines.count > n { statusLines.removeLast(statusLines.count - n) }
    statusBases = statusBases.compactMap { newNumber[$0.status] >= 0 ? (newNumber[$0.status], $0.base) : nil }
  }
}

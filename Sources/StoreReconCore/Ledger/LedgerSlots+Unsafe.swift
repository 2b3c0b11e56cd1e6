import StoreReconPlatform

// Safety: slots are made only here, over the ledger's own record, order and chain buffers, and live
// only as long as the call that made them (``LedgerStorage/withDerivationSlots(_:)``) or, for the
// records, until the next record is added (``LedgerStorage/recordSlots``); the ledger has one owner
// while it is built and derived, so nothing else reads or writes those buffers meanwhile. The door
// checks (debug and release) that the record order covers the records; each index is checked against
// its buffer in debug builds (an assertion on the hot path, as the ledger's other buffers do).

/// A buffer of the ledger read and written in place while its chains are derived: reading an array
/// property of the ledger (a class) retains and releases the array on every access; slots read it
/// directly. Indexes are checked in debug builds.
struct LedgerSlots<Element>: @unchecked Sendable {
  private let buffer: UnsafeMutableBufferPointer<Element>

  fileprivate init(_ buffer: UnsafeMutableBufferPointer<Element>) { self.buffer = buffer }

  /// The number of elements.
  var count: Int { buffer.count }

  /// Element `i`.
  @inline(__always)
  subscript(i: Int) -> Element {
    @inline(__always) get {
      assert(UInt(bitPattern: i) < UInt(buffer.count), "LedgerSlots: index out of range")
      return buffer[i]
    }
    @inline(__always) nonmutating set {
      assert(UInt(bitPattern: i) < UInt(buffer.count), "LedgerSlots: index out of range")
      buffer[i] = newValue
    }
  }

  /// A copy of elements `range`.
  func elements(_ range: Range<Int>) -> [Element] {
    precondition(
      range.lowerBound >= 0 && range.upperBound <= buffer.count, "LedgerSlots: range out of bounds")
    return Array(buffer[range])
  }
}

extension LedgerStorage {
  /// Calls `body` with the records, the record order and the chains as slots, to derive the chains in
  /// place; nothing else may touch the ledger until it returns.
  func withDerivationSlots<R>(
    _ body: (LedgerSlots<PackedRecord>, LedgerSlots<UInt32>, LedgerSlots<ChainState>) -> R
  ) -> R {
    let records = records.buffer
    return order.withUnsafeMutableBufferPointer { order in
      precondition(order.count == records.count, "LedgerSlots: the record order does not cover the records")
      return chains.withUnsafeMutableBufferPointer { chains in
        body(LedgerSlots(records), LedgerSlots(order), LedgerSlots(chains))
      }
    }
  }

  /// The records as slots, valid until the next record is added.
  var recordSlots: LedgerSlots<PackedRecord> { LedgerSlots(records.buffer) }
}

/// A store record or Play resource read more than once (the same file under two names, lines copied
/// into another file): which one the ledger kept, which one it left out, where each was read, and why
/// (``Kind``). `duplicates.csv` lists them.
package struct RecordDuplicate: Sendable, Equatable {
  /// Why one of the two was left out.
  package enum Kind: String, Sendable {
    /// The same content again: counted once.
    case duplicate
    /// The same id in a later state (an Apple transaction revoked or upgraded since, a Play resource
    /// that says more recent things): the later one is kept.
    case superseded
    /// The same id and state with other content: the later one is rejected, the first kept.
    case conflict
  }

  /// Why.
  package var kind: Kind
  /// The store.
  package var store: Store
  /// The transaction or order id; for a Play resource, its purchase token.
  package var id: String
  /// What was read twice: `charge`, `refund`, `void` or `resource`.
  package var record: String
  /// The input (the run's index) and line of the one kept (line 0: not known).
  package var keptInput: Int32
  package var keptLine: Int
  /// The input and line of the one left out.
  package var droppedInput: Int32
  package var droppedLine: Int

  /// Creates the value from its fields.
  package init(
    kind: Kind, store: Store, id: String, record: String, keptInput: Int32, keptLine: Int,
    droppedInput: Int32, droppedLine: Int
  ) {
    self.kind = kind
    self.store = store
    self.id = id
    self.record = record
    self.keptInput = keptInput
    self.keptLine = keptLine
    self.droppedInput = droppedInput
    self.droppedLine = droppedLine
  }
}

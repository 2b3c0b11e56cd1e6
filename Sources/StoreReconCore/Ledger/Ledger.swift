/// Every purchase chain of the run, derived as of one instant, with look-ups by the keys apps store.
package struct Ledger: Sendable {
  let storage: LedgerStorage
  /// The as-of instant the chains were derived for.
  package let asOf: Instant

  init(storage: LedgerStorage, asOf: Instant) {
    self.storage = storage
    self.asOf = asOf
  }

  /// Frees the ledger's records, chains and look-ups (shared by every copy of this ledger), keeping only
  /// the texts that readouts built from it still name. Call it when nothing will read the ledger again.
  package func release() { storage.release() }

  /// The chains, sorted by store then key.
  package var chains: Chains {
    precondition(!storage.isReleased, Ledger.releasedMessage)
    return Chains(storage: storage)
  }

  /// The index of the chain that `key` names in `store`: a chain key, or for Play any order id of the
  /// chain (first order or renewal `..N`).
  package func chainIndex(store: Store, key: String) -> Int? {
    // After release the look-ups are empty: every key would quietly find no chain.
    precondition(!storage.isReleased, Ledger.releasedMessage)
    return storage.chainIndex(store: store, key: key)
  }

  static let releasedMessage = "Ledger: read after release() (its records, chains and look-ups are freed)"

  /// The chain that `key` names in `store`, if the store data knows it.
  package func chain(store: Store, key: String) -> Chain? {
    chainIndex(store: store, key: key).map { Chain(storage: storage, index: $0) }
  }

  /// The ledger's chains as a collection of views.
  package struct Chains: RandomAccessCollection, Sendable {
    let storage: LedgerStorage
    package var startIndex: Int { 0 }
    package var endIndex: Int { storage.chains.count }
    package subscript(position: Int) -> Chain { Chain(storage: storage, index: position) }
  }
}

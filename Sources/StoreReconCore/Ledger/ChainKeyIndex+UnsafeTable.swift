// Safety: the chains buffer is only read, inside `withUnsafeBufferPointer`, for the length of the call.

extension ChainKeyIndex {
  /// An index of every chain of `chains` that `include` accepts; where two have the same key, the later.
  init(_ chains: AlignedChains, include: (ChainState) -> Bool) {
    self = chains.withUnsafeBufferPointer { ChainKeyIndex($0, include: include) }
  }
}

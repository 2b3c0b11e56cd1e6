extension Range where Bound == Int {
  /// The range cut into consecutive blocks of `size` (the last one shorter), in order: the unit of the
  /// loops that first read ahead what a block will need, then work on it.
  @inline(__always)
  func blocks(of size: Int) -> some Sequence<Range<Int>> {
    precondition(size > 0, "blocks(of:): a block holds at least one item")
    let end = upperBound
    return stride(from: lowerBound, to: end, by: size).lazy.map { $0..<Swift.min($0 + size, end) }
  }
}

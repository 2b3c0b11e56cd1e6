/// Which part of a partitioned run this is: `I/N`, partition `index` of `count` (docs/partitions.md).
package struct PartitionSpec: Sendable, Equatable, CustomStringConvertible {
  /// The largest partition count a run accepts.
  package static let maxCount = 4096

  /// 0 ..< `count`.
  package let index: Int
  /// How many partitions the run is cut into.
  package let count: Int

  /// Partition `index` of `count`; `nil` unless 0 ≤ index < count ≤ ``maxCount``.
  package init?(index: Int, count: Int) {
    guard count >= 1, count <= PartitionSpec.maxCount, index >= 0, index < count else { return nil }
    self.index = index
    self.count = count
  }

  /// Parses `I/N` (decimal digits only, e.g. `3/8`); `nil` for anything else.
  package init?(parsing text: String) {
    let parts = text.split(separator: "/", omittingEmptySubsequences: false)
    guard parts.count == 2, let i = PartitionSpec.number(parts[0]), let n = PartitionSpec.number(parts[1])
    else { return nil }
    self.init(index: i, count: n)
  }

  static func number(_ text: Substring) -> Int? {
    guard !text.isEmpty, text.count <= 6, text.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
      return nil
    }
    return Int(text)
  }

  /// Whether the lineage `key` belongs to this partition.
  package func owns(lineage key: String) -> Bool {
    count == 1 || LineageHash.partition(of: key, count: count) == index
  }

  package var description: String { "\(index)/\(count)" }
}

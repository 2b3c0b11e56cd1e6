@testable import StoreReconIO

/// Every line a line reader gives for `path`, as strings with their numbers.
func readLines(_ path: String, chunkSize: Int = 1 << 20) throws -> [(Int, String)] {
  let reader = LineReader(source: try InputBytes.open(path: path), displayName: path, chunkSize: chunkSize)
  var lines: [(Int, String)] = []
  try reader.forEachLine { line, number in lines.append((number, String(decoding: line, as: UTF8.self))) }
  return lines
}

// Safety: a stretch is hashed from the mapping only after `map.load` made its pages readable (or its chunk's
// worker still holds them) and before `map.release` drops them; stretches tile the file and are hashed once
// each, in order, under the lock (precondition on overlap, debug and release).

import StoreReconPlatform

/// The SHA-256 of a mapped input, computed by the read's workers as they finish its chunks: each
/// worker hands over the stretch its chunk covers (``offer(_:_:)``) while its pages are still mapped;
/// stretches are hashed strictly in file order — the worker that hashes up to a stretch another worker
/// left waiting hashes that one too — and their pages dropped once hashed. ``finish(_:)`` hashes what is
/// left (stretches of chunks not parsed, the bytes past the mapping) and gives the file's size and digest,
/// exactly as ``FileDigest`` reads them.
final class ChunkHasher: @unchecked Sendable {
  private let map: MappedFile
  private final class Context {
    var digest = SHA256Digest()
  }
  private let context = Context()
  private let condition = Condition()
  /// Bytes `[0, hashed)` are hashed.
  private var hashed = 0
  /// Stretches waiting for the bytes before them: start → end, and whether their pages are mapped.
  private var parked: [Int: (end: Int, loaded: Bool)] = [:]
  private var busy = false
  private var closed = false
  private var failed = false

  /// A hasher of the file `map` maps.
  init(map: MappedFile) { self.map = map }

  /// Hands over bytes `[from, to)` (no longer needed but for hashing): hashed now if every byte before
  /// them is, else as soon as they are. Stretches must tile the file. `loaded`: their pages are mapped
  /// already (a parsed chunk's), so they are not loaded again.
  func offer(_ from: Int, _ to: Int, loaded: Bool = false) {
    guard to > from else { return }
    condition.lock()
    defer { condition.unlock() }
    guard !closed else { return }
    precondition(
      from >= hashed && parked[from] == nil,
      "ChunkHasher.offer: stretches tile the file ([\(from), \(to)) starts inside bytes offered before)")
    parked[from] = (to, loaded)
    guard !busy else { return }
    busy = true
    while let (end, ready) = parked.removeValue(forKey: hashed) {
      let begin = hashed
      condition.unlock()
      let ok = hash(begin, end, loaded: ready)
      condition.lock()
      hashed = end
      if !ok { failed = true }
    }
    busy = false
    condition.broadcast()
  }

  /// Hashes `[begin, end)` from the mapping and drops its pages; `false` when they cannot be read.
  private func hash(_ begin: Int, _ end: Int, loaded: Bool = false) -> Bool {
    guard loaded || map.load(begin, end - begin) else { return false }
    context.digest.update(UnsafeRawBufferPointer(start: map.base + begin, count: end - begin))
    map.release(begin, end - begin)
    return true
  }

  /// Hashes the rest of `file` and returns its size and digest; `nil` when the mapping could not
  /// provide some bytes (the file shrank: the caller checksums it by reading). Offers after this are
  /// ignored.
  func finish(_ file: FileByteSource) -> (bytes: Int64, sha256: String)? {
    condition.lock()
    closed = true
    while busy { condition.wait() }
    condition.unlock()
    var offset = hashed
    while offset < map.size && !failed {
      let end = min(map.size, offset + (8 << 20))
      if !hash(offset, end) { failed = true }
      offset = end
    }
    guard !failed else { return nil }
    // Bytes past the mapping (the file grew since it was opened), read to the end as FileDigest does.
    var total = Int64(map.size)
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let got = buffer.withUnsafeMutableBufferPointer { b in (try? file.read(at: total, into: b)) ?? 0 }
      guard got > 0 else { break }
      buffer.withUnsafeBytes { context.digest.update(UnsafeRawBufferPointer(rebasing: $0[0..<got])) }
      total += Int64(got)
    }
    var digest = SHA256Digest()
    swap(&digest, &context.digest)
    return (total, digest.finalizeHex())
  }
}

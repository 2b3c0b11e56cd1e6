// Safety: `scan` is handed one line (fewer than Int32.max bytes: a precondition) and reads it only at
// indices checked below its count first (word loads only with `i + 8 <= n`); the nodes and the name stack
// are buffers the tape owns (grown before every write past their count, freed in deinit); a ``StripeSpan``
// points into the line and the nodes and is valid only inside the `body` of the `scan` that made it, which
// copies what it keeps into Strings and integers.

import StoreReconPlatform
import StoreReconIO

/// The lean path of the Stripe reader: one pass over a line checks it against the JSON grammar and
/// records every value as a node (kind, byte span, member name, next sibling, fingerprint) in a buffer
/// reused from line to line, so that fields are read from the line's bytes without building a tree.
///
/// It declines — the line goes to ``JSONParser`` and the tree path, which reads the same or rejects with
/// the precise reason — on anything it does not take: invalid JSON, an escape or a control byte in a
/// string, a member name outside ASCII or twice in one object, nesting past ``JSONParser/maximumDepth``.
/// Bytes outside ASCII in string values are taken (the line is valid UTF-8, checked before).
final class StripeTape {
  /// One value of the line.
  struct Node {
    static let string: UInt8 = 0
    static let number: UInt8 = 1
    static let yes: UInt8 = 2
    static let no: UInt8 = 3
    static let null: UInt8 = 4
    static let object: UInt8 = 5
    static let array: UInt8 = 6

    var kind: UInt8 = 0
    /// A string's bytes between its quotes, a number's text; an object's or array's brackets included.
    var start: Int32 = 0
    var end: Int32 = 0
    /// The member name's bytes (a member of an object), else empty.
    var keyStart: Int32 = 0
    var keyCount: Int32 = -1
    /// The next element or member of the same container, or -1.
    var next: Int32 = -1
    /// An object's or array's elements or members; the first is the next node.
    var children: Int32 = 0
    /// ``StripeFingerprint`` of the value.
    var hash: UInt64 = 0
  }

  private var nodes: UnsafeMutableBufferPointer<Node>
  private var count = 0
  /// The name hashes of the objects being scanned (a stack).
  private var names: UnsafeMutableBufferPointer<UInt64>
  private var nameCount = 0
  /// The line being scanned (a byte of the tape's own between lines).
  private var base: UnsafePointer<UInt8>
  private let empty: UnsafeMutablePointer<UInt8>
  private var n = 0

  init() {
    nodes = .allocate(capacity: 1024)
    names = .allocate(capacity: 256)
    empty = .allocate(capacity: 1)
    empty.initialize(to: 0)
    base = UnsafePointer(empty)
  }

  deinit {
    nodes.deallocate()
    names.deallocate()
    empty.deallocate()
  }

  /// `buffer` moved into a new one of twice its capacity.
  private static func doubled<T>(_ buffer: UnsafeMutableBufferPointer<T>) -> UnsafeMutableBufferPointer<T> {
    let bigger = UnsafeMutableBufferPointer<T>.allocate(capacity: buffer.count * 2)
    if let to = bigger.baseAddress, let from = buffer.baseAddress {
      to.moveInitialize(from: from, count: buffer.count)
    }
    buffer.deallocate()
    return bigger
  }

  /// Scans `line` and calls `body` with its value; `nil` (and `body` not called) when the tape declines.
  func scan<R>(_ line: UnsafeBufferPointer<UInt8>, _ body: (StripeSpan) throws(RowRejection) -> R)
    throws(RowRejection) -> R?
  {
    precondition(line.count < Int(Int32.max), "StripeTape: a line shorter than 2 GB")
    guard let start = line.baseAddress, !line.isEmpty else { return nil }
    base = start
    n = line.count
    count = 0
    nameCount = 0
    var i = skipSpace(0)
    defer { base = UnsafePointer(empty) }
    guard let root = value(&i, depth: 0), skipSpace(i) == n, let tape = nodes.baseAddress else { return nil }
    return try body(StripeSpan(nodes: UnsafePointer(tape), bytes: start, index: root))
  }

  @inline(__always)
  private func skipSpace(_ from: Int) -> Int {
    var i = from
    while i < n {
      let b = base[i]
      guard b == 0x20 || b == 0x0A || b == 0x0D || b == 0x09 else { return i }
      i += 1
    }
    return i
  }

  /// Appends a node; its index.
  @inline(__always)
  private func append(_ node: Node) -> Int32 {
    if count == nodes.count { nodes = StripeTape.doubled(nodes) }
    nodes[count] = node
    count += 1
    return Int32(count - 1)
  }

  @inline(__always)
  private func pushName(_ hash: UInt64) {
    if nameCount == names.count { names = StripeTape.doubled(names) }
    names[nameCount] = hash
    nameCount += 1
  }

  /// The value at `i` as a node (its children after it), `i` moved past it; `nil` to decline.
  private func value(_ i: inout Int, depth: Int) -> Int32? {
    guard i < n else { return nil }
    switch base[i] {
    case 0x22:
      let from = i + 1
      guard let to = stringEnd(from, key: false) else { return nil }
      i = to + 1
      var node = Node(kind: Node.string, start: Int32(from), end: Int32(to))
      node.hash = StripeFingerprint.bytes(base + from, to - from, seed: StripeFingerprint.stringSeed)
      return append(node)
    case 0x2D, 0x30...0x39:
      let from = i
      guard let to = numberEnd(from) else { return nil }
      i = to
      var node = Node(kind: Node.number, start: Int32(from), end: Int32(to))
      node.hash = StripeFingerprint.bytes(base + from, to - from, seed: StripeFingerprint.numberSeed)
      return append(node)
    case 0x74:
      guard literal(i, 0x74, 0x72, 0x75, 0x65) else { return nil }
      i += 4
      return append(
        Node(kind: Node.yes, start: Int32(i - 4), end: Int32(i), hash: StripeFingerprint.trueHash))
    case 0x66:
      guard literal(i + 1, 0x61, 0x6C, 0x73, 0x65) else { return nil }
      i += 5
      return append(
        Node(kind: Node.no, start: Int32(i - 5), end: Int32(i), hash: StripeFingerprint.falseHash))
    case 0x6E:
      guard literal(i, 0x6E, 0x75, 0x6C, 0x6C) else { return nil }
      i += 4
      return append(
        Node(kind: Node.null, start: Int32(i - 4), end: Int32(i), hash: StripeFingerprint.nullHash))
    case 0x7B:
      guard depth < JSONParser.maximumDepth else { return nil }
      return object(&i, depth: depth + 1)
    case 0x5B:
      guard depth < JSONParser.maximumDepth else { return nil }
      return array(&i, depth: depth + 1)
    default:
      return nil
    }
  }

  @inline(__always)
  private func literal(_ i: Int, _ a: UInt8, _ b: UInt8, _ c: UInt8, _ d: UInt8) -> Bool {
    i + 4 <= n && base[i] == a && base[i + 1] == b && base[i + 2] == c && base[i + 3] == d
  }

  private func object(_ i: inout Int, depth: Int) -> Int32? {
    let open = i
    let me = append(Node(kind: Node.object, start: Int32(open)))
    i = skipSpace(i + 1)
    let mark = nameCount
    var sum: UInt64 = 0
    var members: Int32 = 0
    var previous: Int32 = -1
    if i < n && base[i] == 0x7D {
      i += 1
    } else {
      while true {
        i = skipSpace(i)
        guard i < n, base[i] == 0x22 else { return nil }
        let keyFrom = i + 1
        guard let keyTo = stringEnd(keyFrom, key: true) else { return nil }
        i = skipSpace(keyTo + 1)
        guard i < n, base[i] == 0x3A else { return nil }
        i = skipSpace(i + 1)
        guard let child = value(&i, depth: depth) else { return nil }
        let name = StripeFingerprint.bytes(
          base + keyFrom, keyTo - keyFrom, seed: StripeFingerprint.stringSeed)
        pushName(name)
        nodes[Int(child)].keyStart = Int32(keyFrom)
        nodes[Int(child)].keyCount = Int32(keyTo - keyFrom)
        sum &+= StripeFingerprint.member(name: name, value: nodes[Int(child)].hash)
        if previous >= 0 { nodes[Int(previous)].next = child }
        previous = child
        members += 1
        i = skipSpace(i)
        guard i < n else { return nil }
        if base[i] == 0x2C {
          i += 1
          continue
        }
        guard base[i] == 0x7D else { return nil }
        i += 1
        break
      }
    }
    guard distinct(from: mark) else { return nil }
    nameCount = mark
    nodes[Int(me)].end = Int32(i)
    nodes[Int(me)].children = members
    nodes[Int(me)].hash = StripeFingerprint.object(sum: sum, count: Int(members))
    return me
  }

  /// Whether the names pushed since `mark` (one object's) differ; sorts them.
  private func distinct(from mark: Int) -> Bool {
    let k = nameCount - mark
    guard k > 1 else { return true }
    var slice = UnsafeMutableBufferPointer(rebasing: names[mark..<nameCount])
    slice.sort()
    for j in 1..<k where slice[j] == slice[j - 1] { return false }
    return true
  }

  private func array(_ i: inout Int, depth: Int) -> Int32? {
    let me = append(Node(kind: Node.array, start: Int32(i)))
    i = skipSpace(i + 1)
    var h = StripeFingerprint.arraySeed
    var elements: Int32 = 0
    var previous: Int32 = -1
    if i < n && base[i] == 0x5D {
      i += 1
    } else {
      while true {
        i = skipSpace(i)
        guard let child = value(&i, depth: depth) else { return nil }
        h = StripeFingerprint.array(h, element: nodes[Int(child)].hash)
        if previous >= 0 { nodes[Int(previous)].next = child }
        previous = child
        elements += 1
        i = skipSpace(i)
        guard i < n else { return nil }
        if base[i] == 0x2C {
          i += 1
          continue
        }
        guard base[i] == 0x5D else { return nil }
        i += 1
        break
      }
    }
    nodes[Int(me)].end = Int32(i)
    nodes[Int(me)].children = elements
    nodes[Int(me)].hash = StripeFingerprint.mix(h, UInt64(elements))
    return me
  }

  /// The index of the closing quote of the string whose bytes start at `from`; `nil` on an escape, a
  /// control byte, no closing quote, or (a member name) a byte outside ASCII.
  @inline(__always)
  private func stringEnd(_ from: Int, key: Bool) -> Int? {
    var i = from
    #if _endian(little)
      // Eight bytes at a time up to the first quote, backslash or control byte (the lowest flagged byte
      // of each term is exact); then byte by byte.
      let ones: UInt64 = 0x0101_0101_0101_0101
      let highs: UInt64 = 0x8080_8080_8080_8080
      let raw = UnsafeRawPointer(base)
      while i + 8 <= n {
        let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
        let quote = w ^ (0x22 &* ones)
        let backslash = w ^ (0x5C &* ones)
        var hits = (quote &- ones) & ~quote | (backslash &- ones) & ~backslash | (w &- 0x20 &* ones) & ~w
        if key { hits |= w }
        if hits & highs != 0 { break }
        i += 8
      }
    #endif
    while i < n {
      let b = base[i]
      if b == 0x22 { return i }
      if b == 0x5C || b < 0x20 || (key && b >= 0x80) { return nil }
      i += 1
    }
    return nil
  }

  /// The end of the number starting at `from` (JSON's grammar, as ``JSONParser`` checks it); `nil` when
  /// it is not one.
  private func numberEnd(_ from: Int) -> Int? {
    var i = from
    @inline(__always) func digit(_ k: Int) -> Bool { k < n && base[k] >= 0x30 && base[k] <= 0x39 }
    if base[i] == 0x2D { i += 1 }
    guard digit(i) else { return nil }
    if base[i] == 0x30 {
      i += 1
      if digit(i) { return nil }
    } else {
      while digit(i) { i += 1 }
    }
    if i < n && base[i] == 0x2E {
      i += 1
      guard digit(i) else { return nil }
      while digit(i) { i += 1 }
    }
    if i < n && (base[i] == 0x65 || base[i] == 0x45) {
      i += 1
      if i < n && (base[i] == 0x2B || base[i] == 0x2D) { i += 1 }
      guard digit(i) else { return nil }
      while digit(i) { i += 1 }
    }
    return i
  }
}

/// A value of a line scanned by ``StripeTape``, read in place: valid only inside the `scan` call that
/// handed it out.
struct StripeSpan: StripeJSON {
  let nodes: UnsafePointer<StripeTape.Node>
  let bytes: UnsafePointer<UInt8>
  let index: Int32

  private var node: StripeTape.Node { nodes[Int(index)] }

  private func span(_ node: StripeTape.Node) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: bytes + Int(node.start), count: Int(node.end - node.start))
  }

  subscript(key: String) -> StripeSpan? {
    let me = node
    guard me.kind == StripeTape.Node.object, me.children > 0 else { return nil }
    var key = key
    let found: Int32? = key.withUTF8 { name in
      guard let nameBase = name.baseAddress else { return nil }
      var c = index + 1
      while c >= 0 {
        let child = nodes[Int(c)]
        if Int(child.keyCount) == name.count
          && Memory.memcmp(bytes + Int(child.keyStart), nameBase, name.count) == 0
        {
          return child.kind == StripeTape.Node.null ? nil : c
        }
        c = child.next
      }
      return nil
    }
    return found.map { StripeSpan(nodes: nodes, bytes: bytes, index: $0) }
  }

  var text: String? {
    let me = node
    guard me.kind == StripeTape.Node.string || me.kind == StripeTape.Node.number else { return nil }
    return String(decoding: span(me), as: UTF8.self)
  }

  var int64Value: Int64? {
    let me = node
    guard me.kind == StripeTape.Node.string || me.kind == StripeTape.Node.number else { return nil }
    let digits = span(me)
    // Plain digits, as Stripe writes its integers; anything else as JSONNumber reads it.
    var negative = false
    var k = 0
    if k < digits.count && digits[k] == 0x2D {
      negative = true
      k += 1
    }
    guard digits.count - k >= 1, digits.count - k <= 18 else {
      return JSONNumber.convert(digits, rounding: false)
    }
    var value: Int64 = 0
    while k < digits.count {
      let d = digits[k] &- 0x30
      guard d < 10 else { return JSONNumber.convert(digits, rounding: false) }
      value = value * 10 + Int64(d)
      k += 1
    }
    return negative ? -value : value
  }

  var arrayValue: [StripeSpan]? {
    let me = node
    guard me.kind == StripeTape.Node.array else { return nil }
    var out: [StripeSpan] = []
    out.reserveCapacity(Int(me.children))
    var c: Int32 = me.children > 0 ? index + 1 : -1
    while c >= 0 {
      out.append(StripeSpan(nodes: nodes, bytes: bytes, index: c))
      c = nodes[Int(c)].next
    }
    return out
  }

  var brief: String {
    let me = node
    switch me.kind {
    case StripeTape.Node.string, StripeTape.Node.number: return RawText.truncated(span(me))
    case StripeTape.Node.yes: return "true"
    case StripeTape.Node.no: return "false"
    case StripeTape.Node.null: return "null"
    case StripeTape.Node.array: return "an array"
    default: return "an object"
    }
  }

  var isObject: Bool { node.kind == StripeTape.Node.object }

  var isEmptyString: Bool {
    let me = node
    return me.kind == StripeTape.Node.string && me.start == me.end
  }

  var flag: Bool? {
    let me = node
    switch me.kind {
    case StripeTape.Node.yes: return true
    case StripeTape.Node.no: return false
    case StripeTape.Node.string:
      let s = span(me)
      if s.elementsEqual("true".utf8) { return true }
      if s.elementsEqual("false".utf8) { return false }
      return nil
    default: return nil
    }
  }

  var fingerprint: UInt64 { node.hash }
}

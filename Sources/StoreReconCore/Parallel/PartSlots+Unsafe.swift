import StoreReconPlatform

// Safety: a window is valid only inside the `Parallel.map` call that made it, and parts touch disjoint
// elements. Preconditions (debug and release): the window's range lies inside the array, the arrays
// filled together have one count, and a block handed to pointer code lies inside the window.

/// One part's window on an array that the parts of a ``Parallel`` loop fill side by side.
///
/// It reads and writes the elements of ``range`` only, so parts whose ranges do not overlap never touch
/// the same element. A window made by ``Parallel/map(parts:sharing:_:)`` spans the whole array: there
/// the parts promise to touch disjoint elements (each element belongs to one part's work). The window's
/// range is checked against the array (a precondition) when it is made, and against a block handed to
/// pointer code; each element access checks its index in debug builds (an assertion, as the ledger's
/// buffers do: a per-element check on the hot path).
///
/// Valid only inside the `map` call that made it (it is not kept past it: the loop's parts end there).

struct PartSlots<Element> {
  private let buffer: UnsafeMutableBufferPointer<Element>
  /// The elements this part may read and write.
  let range: Range<Int>

  @inline(__always)
  init(_ buffer: UnsafeMutableBufferPointer<Element>, range: Range<Int>) {
    precondition(range.lowerBound >= 0 && range.upperBound <= buffer.count, "PartSlots: range out of bounds")
    self.buffer = buffer
    self.range = range
  }

  /// Element `i`, which must be in ``range``.
  @inline(__always)
  subscript(i: Int) -> Element {
    @inline(__always) get {
      assert(range.contains(i), "PartSlots: index outside the part's range")
      return buffer[i]
    }
    @inline(__always) nonmutating set {
      assert(range.contains(i), "PartSlots: index outside the part's range")
      buffer[i] = newValue
    }
  }

  /// Calls `body` with the array's elements `0..<range.upperBound` as a buffer, for fenced code that
  /// fills `part` (within ``range``) through pointers.
  @inline(__always)
  func withUnsafeMutableBufferPointer<R>(
    covering part: Range<Int>, _ body: (UnsafeMutableBufferPointer<Element>) -> R
  ) -> R {
    precondition(
      part.isEmpty || (part.lowerBound >= range.lowerBound && part.upperBound <= range.upperBound),
      "PartSlots: rows outside the part's range")
    return body(UnsafeMutableBufferPointer(rebasing: buffer[..<range.upperBound]))
  }
}

extension Parallel {
  /// Runs `body` for parts `0..<parts` of `a`'s indexes (as ``range(_:of:count:)`` cuts them), each with
  /// its part's range and a window on that range of `a`; returns the results in part order.
  @inline(__always)
  static func map<A, T>(
    parts: Int, filling a: inout [A], _ body: (Range<Int>, PartSlots<A>) -> T
  ) -> [T] {
    let count = a.count
    return a.withUnsafeMutableBufferPointer { buffer in
      let a = buffer
      return map(parts: parts) { part in
        let range = Parallel.range(part, of: parts, count: count)
        return body(range, PartSlots(a, range: range))
      }
    }
  }

  /// ``map(parts:filling:_:)`` over two arrays of the same count, filled side by side.
  @inline(__always)
  static func map<A, B, T>(
    parts: Int, filling a: inout [A], _ b: inout [B], _ body: (Range<Int>, PartSlots<A>, PartSlots<B>) -> T
  ) -> [T] {
    let count = a.count
    precondition(b.count == count, "Parallel.map(filling:): arrays of different counts")
    return a.withUnsafeMutableBufferPointer { bufferA in
      b.withUnsafeMutableBufferPointer { bufferB in
        let (a, b) = (bufferA, bufferB)
        return map(parts: parts) { part in
          let range = Parallel.range(part, of: parts, count: count)
          return body(range, PartSlots(a, range: range), PartSlots(b, range: range))
        }
      }
    }
  }

  /// ``map(parts:filling:_:)`` over three arrays of the same count, filled side by side.
  @inline(__always)
  static func map<A, B, C, T>(
    parts: Int, filling a: inout [A], _ b: inout [B], _ c: inout [C],
    _ body: (Range<Int>, PartSlots<A>, PartSlots<B>, PartSlots<C>) -> T
  ) -> [T] {
    let count = a.count
    precondition(b.count == count && c.count == count, "Parallel.map(filling:): arrays of different counts")
    return a.withUnsafeMutableBufferPointer { bufferA in
      b.withUnsafeMutableBufferPointer { bufferB in
        c.withUnsafeMutableBufferPointer { bufferC in
          let (a, b, c) = (bufferA, bufferB, bufferC)
          return map(parts: parts) { part in
            let range = Parallel.range(part, of: parts, count: count)
            return body(
              range, PartSlots(a, range: range), PartSlots(b, range: range), PartSlots(c, range: range))
          }
        }
      }
    }
  }

  /// ``map(parts:filling:_:)`` over `a`, each part also with a window on all of `b`, where the parts
  /// must touch disjoint elements (as ``map(parts:sharing:_:)``).
  @inline(__always)
  static func map<A, B, T>(
    parts: Int, filling a: inout [A], sharing b: inout [B],
    _ body: (Range<Int>, PartSlots<A>, PartSlots<B>) -> T
  ) -> [T] {
    let count = a.count
    return a.withUnsafeMutableBufferPointer { bufferA in
      b.withUnsafeMutableBufferPointer { bufferB in
        let (a, b) = (bufferA, bufferB)
        return map(parts: parts) { part in
          let range = Parallel.range(part, of: parts, count: count)
          return body(range, PartSlots(a, range: range), PartSlots(b, range: 0..<b.count))
        }
      }
    }
  }

  /// Runs `body` for parts `0..<parts`, each with a window on all of `a`: the parts must touch disjoint
  /// elements (each element is one part's), which the windows cannot check; they check the bounds.
  /// Returns the results in part order.
  @inline(__always)
  static func map<A, T>(parts: Int, sharing a: inout [A], _ body: (Int, PartSlots<A>) -> T) -> [T] {
    a.withUnsafeMutableBufferPointer { buffer in
      let a = buffer
      return map(parts: parts) { part in body(part, PartSlots(a, range: 0..<a.count)) }
    }
  }
}

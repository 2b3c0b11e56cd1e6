import Dispatch

#if canImport(Glibc)
  import Glibc
#endif

/// Splits work that divides into independent parts over the machine's cores, deterministically: the
/// parts are fixed by the input size (not by timing), and results come back in part order.
package enum Parallel {
  /// Cores available to this process (at least 1).
  package static let cores: Int = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))

  /// How many parts to cut `count` items into: one per core, but none smaller than `minimum` items.
  package static func parts(for count: Int, minimum: Int) -> Int {
    max(1, min(cores, count / max(1, minimum)))
  }

  /// How many parts to cut `count` items into for a loop whose items cost unevenly (chains of one store
  /// lie together, and one store's cost more): up to `perCore` per core, none smaller than `minimum`
  /// items, so a core that finishes its cheap parts takes the next instead of waiting. Only for loops
  /// whose results do not depend on the parts (sums, or lists joined in part order); a loop whose parts
  /// each hold a large table asks for fewer per core.
  package static func balancedParts(for count: Int, minimum: Int, perCore: Int = 8) -> Int {
    max(1, min(cores * max(1, perCore), count / max(1, minimum)))
  }

  /// The items of part `part` of `parts` over `0..<count`.
  package static func range(_ part: Int, of parts: Int, count: Int) -> Range<Int> {
    (count * part / parts)..<(count * (part + 1) / parts)
  }

  /// Runs `body` for parts `0..<parts` (concurrently when there is more than one) and returns the
  /// results in part order.
  package static func map<T>(parts: Int, _ body: (Int) -> T) -> [T] {
    if parts <= 1 { return [body(0)] }
    var results = [T?](repeating: nil, count: parts)
    withoutActuallyEscaping(body) { work in
      results.withUnsafeMutableBufferPointer { slots in
        let box = UnsafeSlots(base: slots, work: work)
        DispatchQueue.concurrentPerform(iterations: parts) { part in
          box.base[part] = box.work(part)
        }
      }
    }
    return results.compactMap { $0 }
  }

  /// Runs two pieces of work at once and returns both results.
  package static func pair<A, B>(_ a: () -> A, _ b: () -> B) -> (A, B) {
    guard cores > 1 else { return (a(), b()) }
    var first: A?
    var second: B?
    withoutActuallyEscaping(a) { a in
      withoutActuallyEscaping(b) { b in
        withUnsafeMutablePointer(to: &first) { p in
          withUnsafeMutablePointer(to: &second) { q in
            let slots = PairSlots(a: p, b: q, workA: a, workB: b)
            DispatchQueue.concurrentPerform(iterations: 2) { i in
              if i == 0 { slots.a.pointee = slots.workA() } else { slots.b.pointee = slots.workB() }
            }
          }
        }
      }
    }
    guard let first, let second else { return (a(), b()) }
    return (first, second)
  }

  private struct UnsafeSlots<T>: @unchecked Sendable {
    let base: UnsafeMutableBufferPointer<T?>
    let work: (Int) -> T
  }

  private struct PairSlots<A, B>: @unchecked Sendable {
    let a: UnsafeMutablePointer<A?>
    let b: UnsafeMutablePointer<B?>
    let workA: () -> A
    let workB: () -> B
  }
}

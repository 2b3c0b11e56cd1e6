import Glibc

/// The C library's elementary functions that the statistics need (the standard library has none), so
/// that the core reaches them without importing a C module.
package enum Math {
  /// The natural logarithm.
  @inlinable package static func log(_ x: Double) -> Double { Glibc.log(x) }
  /// `log(1 + x)`, exact for small `x`.
  @inlinable package static func log1p(_ x: Double) -> Double { Glibc.log1p(x) }
  /// `e` to the power `x`.
  @inlinable package static func exp(_ x: Double) -> Double { Glibc.exp(x) }
  /// The natural logarithm of the absolute value of the gamma function.
  @inlinable package static func lgamma(_ x: Double) -> Double { Glibc.lgamma(x) }
}

public import Glibc

/// The C library's elementary functions that the statistics need (the standard library has none), so
/// that the core reaches them without importing a C module.
public enum Math {
  /// The natural logarithm.
  @inlinable public static func log(_ x: Double) -> Double { Glibc.log(x) }
  /// `log(1 + x)`, exact for small `x`.
  @inlinable public static func log1p(_ x: Double) -> Double { Glibc.log1p(x) }
  /// `e` to the power `x`.
  @inlinable public static func exp(_ x: Double) -> Double { Glibc.exp(x) }
  /// The natural logarithm of the absolute value of the gamma function.
  @inlinable public static func lgamma(_ x: Double) -> Double { Glibc.lgamma(x) }
}

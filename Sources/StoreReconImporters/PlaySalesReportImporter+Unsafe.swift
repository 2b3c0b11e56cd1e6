// Safety: the scratch bytes and the cached product names are arrays read through their own buffers inside
// each closure; memcmp runs only on two buffers of equal count; `nameLength + 1 <= scratch.count - 2` holds
// as the packer writes the scratch (name, zero byte, type, two country bytes).

import StoreReconPlatform
import StoreReconCore
import StoreReconIO

extension PlaySalesReportImporter.Packer {
  // The product cache's look-up: `scratch` (`sku` or `sku:basePlan`, a zero byte, the raw product type,
  // the packed country in two bytes, low first) compared byte for byte with the products seen, through buffers valid inside each closure.

  /// The variant `scratch` spells (its first `nameLength` bytes the product, the bytes after the zero
  /// byte its type, the last two the country): one seen before, else a new one in `batch`'s products,
  /// remembered while fewer than 128 are.
  @inline(__always)
  mutating func knownVariant(nameLength: Int, in batch: RecordBatch) -> UInt32 {
    var found: UInt32?
    scratch.withUnsafeBufferPointer { product in
      for entry in known where entry.product.count == product.count {
        let same = entry.product.withUnsafeBufferPointer { p in
          guard let a = p.baseAddress, let b = product.baseAddress else { return true }
          return Memory.memcmp(a, b, product.count) == 0
        }
        if same {
          found = entry.variant
          return
        }
      }
    }
    if let found { return found }
    precondition(
      nameLength + 1 <= scratch.count - 2, "PlaySalesReport: scratch holds name, zero, type, country")
    let products = batch.products
    let variant = scratch.withUnsafeBufferPointer { all in
      let end = all.count - 2
      let country = UInt16(all[end]) | UInt16(all[end + 1]) << 8
      return products.variant(
        store: .play, name: products.name(UnsafeBufferPointer(rebasing: all[0..<nameLength])),
        type: products.type(UnsafeBufferPointer(rebasing: all[(nameLength + 1)..<end])), country: country)
    }
    if known.count < 128 { known.append((scratch.withUnsafeBufferPointer { Array($0) }, variant)) }
    return variant
  }
}

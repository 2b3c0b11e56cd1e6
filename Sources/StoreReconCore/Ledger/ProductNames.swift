/// Numbers the product names and product types millions of records repeat, and the variants
/// (store, product name, raw product type, country, quantity) a record refers to by one 32-bit number.
///
/// The country (Apple `storefront` mapped to alpha-2, Play `Country of Buyer`) and the quantity (Apple
/// `quantity`) ride on the variant because a few products × countries × quantities cover millions of
/// records: the tie-out reads them per record without a byte more per record.
///
/// A variant's product type and billing period follow from the catalog; ``resolve(catalog:)`` works
/// them out once for every variant instead of once per record.
package final class ProductNames: @unchecked Sendable {
  /// One (store, name, raw type) combination.
  struct Variant: Hashable {
    var store: Store
    var name: UInt32
    var type: UInt32
    /// ``CountryCode`` packed alpha-2, 0 unknown.
    var country: UInt16 = 0
    /// Units the purchase counts for (Apple `quantity`); 1 elsewhere.
    var quantity: UInt16 = 1
  }

  /// The names and raw types by number (interned from bytes in ProductNames+UnsafeBytes.swift).
  let namePool = TextPool()
  let typePool = TextPool()
  /// Each name and type as a `String`, made once and shared by everything that outputs it.
  package internal(set) var names: [String] = []
  var types: [String] = []
  private(set) var variants: [Variant] = []
  private var variantIndex: [Variant: UInt32] = [:]
  /// Per variant: the product type (catalog first, else the raw type) and the billing period.
  private(set) var productType: [ProductType] = []
  private(set) var period: [BillingPeriod] = []

  /// Creates an empty table.
  package init() {}

  /// The number of the product name `text`.
  package func name(_ text: String) -> UInt32 {
    var text = text
    return text.withUTF8 { name($0) }
  }

  /// The number of the raw product type `text`.
  package func type(_ text: String) -> UInt32 {
    var text = text
    return text.withUTF8 { type($0) }
  }

  /// The number of a name already known, if any.
  func findName(_ text: String) -> UInt32? {
    var text = text
    return text.withUTF8 { namePool.find($0) }
  }

  /// The variant number of (`store`, name `name`, type `type`, `country`, `quantity`).
  @inline(__always)
  package func variant(store: Store, name: UInt32, type: UInt32, country: UInt16 = 0, quantity: UInt16 = 1)
    -> UInt32
  {
    let key = Variant(store: store, name: name, type: type, country: country, quantity: quantity)
    if let id = variantIndex[key] { return id }
    let id = UInt32(truncatingIfNeeded: variants.count)
    variants.append(key)
    variantIndex[key] = id
    return id
  }

  /// The variant of `store`, product `productId`, raw type `typeRaw`, `country` and `quantity`.
  func variant(store: Store, productId: String, typeRaw: String, country: UInt16 = 0, quantity: UInt16 = 1)
    -> UInt32
  {
    variant(store: store, name: name(productId), type: type(typeRaw), country: country, quantity: quantity)
  }

  /// For every variant of `other`, the number of the same variant in this table (adding it when new).
  func numbers(of other: ProductNames) -> [UInt32] {
    var nameMap = [UInt32](repeating: 0, count: other.names.count)
    for (i, text) in other.names.enumerated() { nameMap[i] = name(text) }
    var typeMap = [UInt32](repeating: 0, count: other.types.count)
    for (i, text) in other.types.enumerated() { typeMap[i] = type(text) }
    return other.variants.map {
      variant(
        store: $0.store, name: nameMap[Int($0.name)], type: typeMap[Int($0.type)], country: $0.country,
        quantity: $0.quantity)
    }
  }

  /// The product name of variant `v`.
  @inline(__always) func nameID(ofVariant v: UInt32) -> UInt32 { variants[Int(v)].name }

  /// The product name of variant `v` as text.
  @inline(__always) func name(ofVariant v: UInt32) -> String { names[Int(variants[Int(v)].name)] }

  /// The packed country (``CountryCode``) of variant `v`, 0 unknown.
  @inline(__always) func country(ofVariant v: UInt32) -> UInt16 { variants[Int(v)].country }

  /// The units a purchase of variant `v` counts for.
  @inline(__always) func quantity(ofVariant v: UInt32) -> UInt16 { variants[Int(v)].quantity }

  /// The raw product type of variant `v`.
  @inline(__always) func typeRaw(ofVariant v: UInt32) -> String { types[Int(variants[Int(v)].type)] }

  /// Works out every variant's product type and billing period from `catalog`.
  func resolve(catalog: Catalog) {
    productType = variants.map { v in
      catalog.product(names[Int(v.name)], store: v.store)?.type ?? ProductType(raw: types[Int(v.type)])
    }
    period = variants.map { catalog.period(names[Int($0.name)], store: $0.store) }
  }
}

extension ProductNames {
  /// What is wrong with the table (nothing: empty): its two pools (``TextPool/checkInvariants()``),
  /// each name and type kept once as a `String` under its pool number, and the variant index holding
  /// each variant once, under its own number. For tests and debugging.
  func checkInvariants() -> [String] {
    var problems = namePool.checkInvariants().map { "names: " + $0 }
    problems += typePool.checkInvariants().map { "types: " + $0 }
    for (label, pool, texts) in [("name", namePool, names), ("type", typePool, types)] {
      if pool.count != texts.count {
        problems.append("ProductNames: \(pool.count) \(label)s pooled, \(texts.count) kept as text")
      }
      for (i, text) in texts.enumerated() where i < pool.count && pool.string(UInt32(i)) != text {
        problems.append("ProductNames: \(label) \(i) is \(text.debugDescription) as text, not as pooled")
      }
    }
    if variantIndex.count != variants.count {
      problems.append("ProductNames: \(variants.count) variants, \(variantIndex.count) in the index")
    }
    for (i, v) in variants.enumerated() where variantIndex[v] != UInt32(truncatingIfNeeded: i) {
      problems.append(
        "ProductNames: variant \(i) is filed under \(variantIndex[v].map(String.init) ?? "none")")
    }
    return problems
  }
}

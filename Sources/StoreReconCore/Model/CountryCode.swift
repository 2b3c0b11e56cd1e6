/// ISO 3166-1 country codes, packed in 16 bits (two letters A–Z, 5 bits each; 0 = unknown), and the
/// alpha-3 → alpha-2 map that turns Apple's `storefront` (alpha-3) into the alpha-2 codes the stores'
/// reports write.
package enum CountryCode {
  /// The packed alpha-2 code spelled by `bytes` (two ASCII letters, either case), or 0.
  @inline(__always)
  package static func pack<C: Collection<UInt8>>(alpha2 bytes: C) -> UInt16 {
    guard bytes.count == 2 else { return 0 }
    var value: UInt16 = 0
    for b in bytes {
      let upper = b & 0xDF
      guard upper >= 0x41 && upper <= 0x5A else { return 0 }
      value = value << 5 | UInt16(upper - 0x40)
    }
    return value
  }

  /// The packed alpha-2 code of the alpha-3 code spelled by `bytes` (either case), or 0 when it is not
  /// an ISO 3166-1 code (Apple writes `XKS` for Kosovo: mapped to `XK`).
  package static func pack<C: Collection<UInt8>>(alpha3 bytes: C) -> UInt16 {
    guard bytes.count == 3 else { return 0 }
    var key: UInt32 = 0
    for b in bytes {
      let upper = b & 0xDF
      guard upper >= 0x41 && upper <= 0x5A else { return 0 }
      key = key << 5 | UInt32(upper - 0x40)
    }
    return alpha3Index[key] ?? 0
  }

  /// The packed alpha-2 code of a text of two letters (alpha-2) or three (alpha-3), or 0.
  package static func pack(_ text: String) -> UInt16 {
    let bytes = Array(text.utf8)
    return bytes.count == 3 ? pack(alpha3: bytes) : pack(alpha2: bytes)
  }

  /// The alpha-2 text of a packed code (empty for 0).
  package static func text(_ code: UInt16) -> String {
    guard code != 0 else { return "" }
    let first = UInt8(truncatingIfNeeded: code >> 5 & 31) + 0x40
    let second = UInt8(truncatingIfNeeded: code & 31) + 0x40
    return String(decoding: [first, second], as: UTF8.self)
  }

  /// alpha-3 (packed in 15 bits) → packed alpha-2.
  private static let alpha3Index: [UInt32: UInt16] = {
    var index: [UInt32: UInt16] = [:]
    for chunk in pairs {
      let bytes = Array(chunk.utf8)
      var i = 0
      while i + 5 <= bytes.count {
        var key: UInt32 = 0
        for b in bytes[i..<i + 3] { key = key << 5 | UInt32(b - 0x40) }
        index[key] = pack(alpha2: bytes[i + 3..<i + 5])
        i += 5
      }
    }
    return index
  }()

  /// Every ISO 3166-1 country as alpha-3 followed by alpha-2 (249 codes, ISO 3166-1 as of 2026), plus
  /// Apple's `XKS` for Kosovo.
  private static let pairs: [String] = [
    "ABWAWAFGAFAGOAOAIAAIALAAXALBALANDADAREAEARGARARMAMASMASATAAQATFTFATGAGAUSAUAUTATAZEAZBDIBIBELBE",
    "BENBJBESBQBFABFBGDBDBGRBGBHRBHBHSBSBIHBABLMBLBLRBYBLZBZBMUBMBOLBOBRABRBRBBBBRNBNBTNBTBVTBVBWABW",
    "CAFCFCANCACCKCCCHECHCHLCLCHNCNCIVCICMRCMCODCDCOGCGCOKCKCOLCOCOMKMCPVCVCRICRCUBCUCUWCWCXRCXCYMKY",
    "CYPCYCZECZDEUDEDJIDJDMADMDNKDKDOMDODZADZECUECEGYEGERIERESHEHESPESESTEEETHETFINFIFJIFJFLKFKFRAFR",
    "FROFOFSMFMGABGAGBRGBGEOGEGGYGGGHAGHGIBGIGINGNGLPGPGMBGMGNBGWGNQGQGRCGRGRDGDGRLGLGTMGTGUFGFGUMGU",
    "GUYGYHKGHKHMDHMHNDHNHRVHRHTIHTHUNHUIDNIDIMNIMINDINIOTIOIRLIEIRNIRIRQIQISLISISRILITAITJAMJMJEYJE",
    "JORJOJPNJPKAZKZKENKEKGZKGKHMKHKIRKIKNAKNKORKRKWTKWLAOLALBNLBLBRLRLBYLYLCALCLIELILKALKLSOLSLTULT",
    "LUXLULVALVMACMOMAFMFMARMAMCOMCMDAMDMDGMGMDVMVMEXMXMHLMHMKDMKMLIMLMLTMTMMRMMMNEMEMNGMNMNPMPMOZMZ",
    "MRTMRMSRMSMTQMQMUSMUMWIMWMYSMYMYTYTNAMNANCLNCNERNENFKNFNGANGNICNINIUNUNLDNLNORNONPLNPNRUNRNZLNZ",
    "OMNOMPAKPKPANPAPCNPNPERPEPHLPHPLWPWPNGPGPOLPLPRIPRPRKKPPRTPTPRYPYPSEPSPYFPFQATQAREUREROURORUSRU",
    "RWARWSAUSASDNSDSENSNSGPSGSGSGSSHNSHSJMSJSLBSBSLESLSLVSVSMRSMSOMSOSPMPMSRBRSSSDSSSTPSTSURSRSVKSK",
    "SVNSISWESESWZSZSXMSXSYCSCSYRSYTCATCTCDTDTGOTGTHATHTJKTJTKLTKTKMTMTLSTLTONTOTTOTTTUNTNTURTRTUVTV",
    "TWNTWTZATZUGAUGUKRUAUMIUMURYUYUSAUSUZBUZVATVAVCTVCVENVEVGBVGVIRVIVNMVNVUTVUWLFWFWSMWSYEMYEZAFZA",
    "ZMBZMZWEZW",
    "XKSXK",
  ]
}

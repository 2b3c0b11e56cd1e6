package import StoreReconCore

extension RunConfig {
  /// Reads `catalog`: per product its `type`, `period`, `units` (what one consumable purchase credits)
  /// and `tier` (what a subscription grants).
  package static func parseCatalog(
    _ catalog: [String: Any], into config: inout RunConfig, fail: (String) -> RunError
  ) throws(RunError) {
    for (name, value) in catalog {
      guard let entry = value as? [String: Any] else { throw fail("catalog.\(name) must be an object") }
      var product = Catalog.Product()
      if let type = entry["type"] {
        switch type as? String {
        case "subscription": product.type = .autoRenewable
        case "non_renewing": product.type = .nonRenewing
        case "non_consumable": product.type = .nonConsumable
        case "consumable": product.type = .consumable
        default:
          throw fail("catalog.\(name).type must be subscription, non_renewing, non_consumable or consumable")
        }
      }
      if let period = entry["period"] {
        guard let text = period as? String, let parsed = BillingPeriod.parse(text) else {
          throw fail("catalog.\(name).period must be an ISO 8601 period such as P1M or P1Y")
        }
        product.period = parsed
      }
      if let units = entry["units"] {
        guard !isJSONBool(units), let n = units as? Int, n > 0 else {
          throw fail("catalog.\(name).units must be a whole number of at least 1")
        }
        product.units = Int64(n)
      }
      if let tier = entry["tier"] {
        guard let text = tier as? String, !text.isEmpty else {
          throw fail("catalog.\(name).tier must be a non-empty text such as \"pro\"")
        }
        product.tier = text
      }
      config.catalog.set(name, product)
    }
  }

  /// Reads `app.credits` (the credits CSV; with a database, any value asks for the credits query),
  /// `app.notifications` (the same for the notification log), `notificationAgeHours` and
  /// `creditGraceHours`.
  package static func parseCredits(
    _ root: [String: Any], _ app: [String: Any], into config: inout RunConfig, fail: (String) -> RunError
  ) throws(RunError) {
    if let credits = app["credits"] {
      config.readsCredits = true
      switch credits {
      case let path as String: config.credits = path
      case let flag where isJSONBool(flag): config.readsCredits = (flag as? Bool) ?? false
      default: throw fail("app.credits must be a path (or true, with a database)")
      }
    }
    if let notifications = app["notifications"] {
      config.readsNotifications = true
      switch notifications {
      case let path as String: config.notifications = path
      case let flag where isJSONBool(flag): config.readsNotifications = (flag as? Bool) ?? false
      default: throw fail("app.notifications must be a path (or true, with a database)")
      }
    }
    if let hours = root["notificationAgeHours"] {
      guard !isJSONBool(hours), let n = hours as? Int, n >= 0, n <= 24 * 366 else {
        throw fail("notificationAgeHours must be a whole number of hours from 0 to 8784")
      }
      config.notificationAgeHours = Int64(n)
    }
    if let hours = root["creditGraceHours"] {
      guard !isJSONBool(hours), let n = hours as? Int, n >= 0 else {
        throw fail("creditGraceHours must be a non-negative whole number")
      }
      config.creditGraceHours = Int64(n)
    }
  }
}

package import StoreReconSettings
/// Google Play: the subscriptions (`purchases.subscriptionsv2.get` for every token the app knows and the
/// tokens they link to), the voided purchases (`purchases.voidedpurchases.list`) and the sales and
/// earnings reports from the developer account's Cloud Storage bucket, with a service account's OAuth
/// token (docs/fetch.md#google-play).
///
/// `fetch.google.packageName` turns on the two Play Developer API steps, `fetch.google.bucket` the
/// reports; the service account file (or the file the environment variable
/// `STORERECON_GOOGLE_SERVICE_ACCOUNT_FILE` names) is needed for both.
package final class GoogleFetchSource: FetchSource {
  package let name = "google"

  /// Creates the source.
  package init() {}

  /// 25: half of the 3,000 queries a minute of the Play Developer API's Subscriptions bucket, the other
  /// half left to the app's own servers (docs/fetch.md#retries-limits-and-failures).
  package let defaultRequestsPerSecond = 25.0

  package func isConfigured(_ config: FetchConfig) -> Bool { config.google != nil }

  package func run(_ context: FetchContext) throws(FetchError) -> FetchReport {
    var report = FetchReport(source: name)
    guard let settings = context.config.google else { return report }
    guard settings.packageName != nil || settings.bucket != nil else {
      throw FetchError(
        .config, "fetch.google needs packageName (subscriptions, voided purchases) or bucket (reports)")
    }
    guard let keyFile = settings.keyFile(environment: context.environment) else {
      throw FetchError(
        .config,
        "fetch.google.serviceAccountFile (or \(FetchConfig.Google.keyFileVariable)) must name the service account's key file"
      )
    }
    let account = try GoogleServiceAccount.load(path: keyFile)
    let auth = GoogleAuth(account: account, tokenURL: context.config.oauthTokenURL, http: context.http)
    var state = try context.state.load(GoogleFetchState.self, for: name) ?? GoogleFetchState()
    // The reports first: the sales reports' subscription orders find the purchases the app never claimed.
    if let bucket = settings.bucket {
      let reports = try GoogleReports(context: context, auth: auth, bucket: bucket).run(&state) {
        (saved) throws(FetchError) in try context.state.save(saved, for: name)
      }
      try context.state.save(state, for: name)
      report.records += reports.downloaded
      context.progress.note(
        "fetch google: \(reports.listed) report files listed, \(reports.downloaded) downloaded")
    }
    if let packageName = settings.packageName {
      // The voids first: their purchase tokens are asked about with the app's own.
      let voided = try GoogleVoidedPurchases(
        context: context, auth: auth, packageName: packageName, backfillDays: settings.backfillDays
      ).run(&state)
      try context.state.save(state, for: name)
      report.records += voided.listed
      context.progress.note("fetch google: \(voided.listed) voided purchases listed")
      let subscriptions = try GoogleSubscriptions(context: context, auth: auth, packageName: packageName)
        .run(
          &state, voidedTokens: voided.tokens,
          orders: GoogleOrders(context: context, auth: auth, packageName: packageName))
      try context.state.save(state, for: name)
      report.records += subscriptions.resources
      var line = "fetch google: \(subscriptions.resources) subscriptions (\(subscriptions.asked) asked, "
      line += "\(subscriptions.kept) settled kept)"
      if !subscriptions.unknown.isEmpty {
        line += "; \(subscriptions.unknown.count) purchase tokens unknown to Google (listed in state.json)"
      }
      context.progress.note(line)
    }
    return report
  }
}

import Foundation

/// The config's `fetch` object (docs/fetch.md): where fetched files go, how HTTPS is done, the stores'
/// base URLs and each store's key settings. Paths are resolved against the config's folder. The keys
/// themselves are never in the config: only the names of the files that hold them.
package struct FetchConfig: Sendable {
  /// The folder fetched files and `state.json` go to (`fetch.into`, resolved).
  package var into: String
  /// PEM file of the certificate authorities to trust instead of the system's (`fetch.caFile`).
  package var caFile: String?
  /// Seconds one request may take (`fetch.timeoutSeconds`, 60); connecting may take at most 30 of them.
  package var timeoutSeconds = 60
  /// Tries after the first on 429, 5xx and transport failures (`fetch.retries`, 3).
  package var retries = 3
  /// At most this many requests start per second (`fetch.requestsPerSecond`; 0: no bound); `nil`: each
  /// source's own default, chosen from what its store documents (docs/fetch.md#retries-limits-and-failures).
  package var requestsPerSecond: Double?
  /// How many requests are in flight at once where a source has independent ones to send (the App Store
  /// customers, the Play subscriptions): `fetch.concurrency`, 8; 1 sends them one at a time.
  package var concurrency = 8
  /// The largest response body accepted, in bytes (`fetch.maxBodyBytes`, 256 MiB).
  package var maxBodyBytes = 256 << 20
  /// The App Store Server API (`fetch.appStoreServerURL`; the sandbox is
  /// `https://api.storekit-sandbox.itunes.apple.com`).
  package var appStoreServerURL = "https://api.storekit.itunes.apple.com"
  /// The App Store Connect API (`fetch.appStoreConnectURL`).
  package var appStoreConnectURL = "https://api.appstoreconnect.apple.com"
  /// The Google Play Developer API (`fetch.playDeveloperURL`).
  package var playDeveloperURL = "https://androidpublisher.googleapis.com"
  /// Google Cloud Storage's JSON API (`fetch.storageURL`).
  package var storageURL = "https://storage.googleapis.com"
  /// Google's OAuth token endpoint (`fetch.oauthTokenURL`).
  package var oauthTokenURL = "https://oauth2.googleapis.com/token"
  /// Stripe's REST API (`fetch.stripeURL`).
  package var stripeURL = "https://api.stripe.com"
  /// Where Stripe serves the files a report run writes (`fetch.stripeFilesURL`): the key is sent to a
  /// report's download URL only when it starts with this.
  package var stripeFilesURL = "https://files.stripe.com"
  /// `fetch.apple`; `nil` when the config has none (the Apple source is then not configured).
  package var apple: Apple?
  /// `fetch.google`; `nil` when the config has none.
  package var google: Google?
  /// `fetch.stripe`; `nil` when the config has none.
  package var stripe: Stripe?

  /// `fetch.apple`: the App Store Connect API key and the app.
  package struct Apple: Sendable {
    /// The key's id (10 characters, App Store Connect → Users and Access → Integrations).
    package var keyId: String
    /// The issuer id (a UUID, same page).
    package var issuerId: String
    /// The app's bundle id (`com.acme.app`).
    package var bundleId: String
    /// The `.p8` file (resolved); the environment variable ``Apple/keyFileVariable`` overrides it.
    package var privateKeyFile: String?
    /// The App Store Connect API key for the reports (`connectKeyId`, `connectPrivateKeyFile`): a team
    /// key, not the In-App Purchase key of the Server API; the Server API's key when not given.
    package var connectKeyId: String?
    package var connectPrivateKeyFile: String?
    /// The vendor number of the Sales and Trends reports; without it no report is fetched.
    package var vendorNumber: String?
    /// How many days back the first fetch reads notification history and reports (`backfillDays`, 30),
    /// and how far back a day whose report was missing is asked for again.
    package var backfillDays = 30
    /// The environment variable that names the `.p8` file, overriding `privateKeyFile`.
    package static let keyFileVariable = "STORERECON_APPLE_KEY_FILE"

    /// The environment variable that names the reports key's `.p8` file, overriding `connectPrivateKeyFile`.
    package static let connectKeyFileVariable = "STORERECON_APPLE_CONNECT_KEY_FILE"

    /// The `.p8` file to read: the environment variable's when set, else the config's.
    package func keyFile(environment: [String: String]) -> String? {
      if let path = environment[Apple.keyFileVariable], !path.isEmpty { return path }
      return privateKeyFile
    }

    /// The reports key's id and `.p8` file: the Connect key's when configured, else the Server API's.
    package func connectKey(environment: [String: String]) -> (id: String, file: String?) {
      if let path = environment[Apple.connectKeyFileVariable], !path.isEmpty {
        return (connectKeyId ?? keyId, path)
      }
      if let connectKeyId {
        return (connectKeyId, connectPrivateKeyFile ?? keyFile(environment: environment))
      }
      return (keyId, keyFile(environment: environment))
    }
  }

  /// `fetch.google`: the service account and the app.
  package struct Google: Sendable {
    /// The service account's JSON key file (resolved); ``Google/keyFileVariable`` overrides it.
    package var serviceAccountFile: String?
    /// The app's package name (`com.acme.app`).
    package var packageName: String?
    /// The reports bucket (`pubsite_prod_rev_<id>`).
    package var bucket: String?
    /// How many days back the first fetch reads (`backfillDays`, 30).
    package var backfillDays = 30
    /// The environment variable that names the service account file, overriding `serviceAccountFile`.
    package static let keyFileVariable = "STORERECON_GOOGLE_SERVICE_ACCOUNT_FILE"

    /// The service account file to read: the environment variable's when set, else the config's.
    package func keyFile(environment: [String: String]) -> String? {
      if let path = environment[Google.keyFileVariable], !path.isEmpty { return path }
      return serviceAccountFile
    }
  }

  /// `fetch.stripe`: where the API key is and how far back the first fetch reads.
  package struct Stripe: Sendable {
    /// The file that holds the API key (resolved); the environment variable ``Stripe/keyVariable``, which
    /// holds the key itself, overrides it.
    package var apiKeyFile: String?
    /// How many days back the first fetch lists objects and runs the balance report (`backfillDays`, 30).
    package var backfillDays = 30
    /// Whether the balance report is fetched through report runs (`reports`, true).
    package var reports = true
    /// The environment variable that holds the key (Stripe's own tools read the same one).
    package static let keyVariable = "STRIPE_API_KEY"
  }

  /// Creates a config writing into `into`.
  package init(into: String) { self.into = into }

  /// Every key of `fetch`, for the config schema: the top-level ones and those of `apple` and `google`.
  package static let keys: [String] = [
    "into", "caFile", "timeoutSeconds", "retries", "requestsPerSecond", "concurrency", "maxBodyBytes",
    "appStoreServerURL",
    "appStoreConnectURL", "playDeveloperURL", "storageURL", "oauthTokenURL", "stripeURL", "stripeFilesURL",
    "apple", "google", "stripe",
  ]
  package static let appleKeys = [
    "keyId", "issuerId", "bundleId", "privateKeyFile", "vendorNumber", "backfillDays", "connectKeyId",
    "connectPrivateKeyFile",
  ]
  package static let googleKeys = ["serviceAccountFile", "packageName", "bucket", "backfillDays"]
  package static let stripeKeys = ["apiKeyFile", "backfillDays", "reports"]
}

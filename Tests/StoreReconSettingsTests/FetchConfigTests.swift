import Testing
import StoreReconSettings

@Suite struct FetchConfigTests {
  func parse(_ object: [String: Any]) throws(FetchError) -> FetchConfig? {
    try FetchConfig.parse(object, baseDirectory: "/srv/recon", name: "c.json")
  }

  func message(_ object: [String: Any]) -> String? {
    do {
      _ = try parse(object)
      return nil
    } catch {
      #expect(error.kind == .config)
      return error.message
    }
  }

  @Test func defaultsAndResolvedPaths() throws {
    let config = try #require(
      try parse([
        "into": "fetched",
        "apple": ["keyId": "K", "issuerId": "I", "bundleId": "B", "privateKeyFile": "keys/a.p8"],
      ]))
    #expect(config.into == "/srv/recon/fetched")
    #expect(config.appStoreServerURL == "https://api.storekit.itunes.apple.com")
    #expect(config.appStoreConnectURL == "https://api.appstoreconnect.apple.com")
    #expect(
      config.retries == 3 && config.timeoutSeconds == 60 && config.requestsPerSecond == nil
        && config.concurrency == 8)
    #expect(config.apple?.privateKeyFile == "/srv/recon/keys/a.p8")
    #expect(config.apple?.keyFile(environment: [:]) == "/srv/recon/keys/a.p8")
    #expect(
      config.apple?.keyFile(environment: ["STORERECON_APPLE_KEY_FILE": "/run/secrets/k.p8"])
        == "/run/secrets/k.p8")
    #expect(config.apple?.connectKey(environment: [:]).id == "K")
    #expect(config.google == nil)
    #expect(try FetchConfig.parse(nil, baseDirectory: "/", name: "c") == nil)
  }

  @Test func zeroRequestsPerSecondIsNoBoundButABooleanIsRefused() throws {
    #expect(try parse(["into": "f", "requestsPerSecond": 0])?.requestsPerSecond == 0)
    #expect(try parse(["into": "f", "requestsPerSecond": 2.5])?.requestsPerSecond == 2.5)
    #expect(try parse(["into": "f", "retries": 0])?.retries == 0)
    #expect(message(["into": "f", "requestsPerSecond": true])?.contains("fetch.requestsPerSecond") == true)
    #expect(message(["into": "f", "retries": false])?.contains("fetch.retries") == true)
  }

  @Test func mistakesAreNamedByTheirPath() {
    #expect(message([:]) == "config c.json: fetch.into must name the folder to fetch into")
    #expect(message(["caFile": "ca.pem"])?.contains("fetch.into") == true)
    #expect(message(["into": "f", "appStoreServerURL": "http://api.example"])?.contains("https://") == true)
    #expect(message(["into": "f", "timeoutSeconds": 0])?.contains("fetch.timeoutSeconds") == true)
    #expect(
      message(["into": "f", "apple": ["keyId": "K"]]) == "config c.json: fetch.apple.issuerId is required")
    #expect(message(["into": "f", "google": "yes"]) == "config c.json: fetch.google must be an object")
  }

  @Test func aKeyPastedIntoTheConfigIsRefusedWithoutEchoingIt() {
    let pem =
      "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg\n-----END PRIVATE KEY-----"
    let text = message([
      "into": "f", "apple": ["keyId": "K", "issuerId": "I", "bundleId": "B", "privateKeyFile": pem],
    ])
    #expect(text?.contains("fetch.apple.privateKeyFile must name the key's file") == true)
    #expect(text?.contains("MIGHAgEA") == false)
    let json = message(["into": "f", "google": ["serviceAccountFile": "{\"private_key\": \"x\"}"]])
    #expect(json?.contains("private_key") == false)
  }

  @Test func theStripeSection() throws {
    let config = try #require(
      try parse([
        "into": "f", "stripe": ["apiKeyFile": "keys/stripe.key", "backfillDays": 90, "reports": false],
      ]))
    #expect(config.stripeURL == "https://api.stripe.com")
    #expect(config.stripeFilesURL == "https://files.stripe.com")
    #expect(config.stripe?.apiKeyFile == "/srv/recon/keys/stripe.key")
    #expect(config.stripe?.backfillDays == 90 && config.stripe?.reports == false)
    #expect(try parse(["into": "f", "stripe": [:]])?.stripe?.reports == true)
    #expect(
      try parse(["into": "f", "stripeURL": "https://127.0.0.1:8443/"])?.stripeURL == "https://127.0.0.1:8443")
    #expect(
      message(["into": "f", "stripe": ["reports": 1]])
        == "config c.json: fetch.stripe.reports must be true or false")
    #expect(
      message(["into": "f", "stripe": ["backfillDays": 0]])?.contains("fetch.stripe.backfillDays") == true)
    #expect(message(["into": "f", "stripeURL": "http://api.stripe.com"])?.contains("https://") == true)
    // A key pasted where its file's name belongs is refused and not echoed.
    let pasted = message(["into": "f", "stripe": ["apiKeyFile": "rk_live_51AbCdEfGhIjKlMnOpQrStUv"]])
    #expect(pasted?.contains("fetch.stripe.apiKeyFile must name the key's file") == true)
    #expect(pasted?.contains("AbCdEf") == false)
  }
}

internal import CCurl
import Foundation
package import StoreReconSettings

/// Sends one message over SMTP through libcurl: STARTTLS or implicit TLS, AUTH when a user name is set.
package enum SMTPSender {
  /// Why a message was not sent.
  package struct Failure: Error, CustomStringConvertible, Sendable {
    /// What went wrong, as the exit code tells it.
    package enum Kind: Sendable, Equatable {
      /// The server refused the user name or password (libcurl `CURLE_LOGIN_DENIED` with SMTP reply 535).
      case authentication
      /// Anything else: no connection, TLS failure, timeout, a refused sender or recipient.
      case unavailable
    }

    package var kind: Kind
    /// libcurl's error code.
    package var curlCode: Int32
    /// One line: libcurl's message and its detail.
    package var message: String
    package var description: String { message }
  }

  /// What the connection needs besides the message.
  package struct Connection: Sendable {
    /// `smtp://host:587` or `smtps://host:465`.
    package var url: String
    /// Encryption.
    package var tls: MailSettings.TLS
    /// AUTH user name and password, or `nil` for no AUTH.
    package var username: String?
    package var password: String?
    /// Total time allowed, in seconds.
    package var timeoutSeconds: Int
    /// CA certificates (PEM) to verify the server with, instead of the system's store.
    package var caFile: String?

    /// Creates connection settings.
    package init(
      url: String, tls: MailSettings.TLS, username: String?, password: String?, timeoutSeconds: Int,
      caFile: String? = nil
    ) {
      self.url = url
      self.tls = tls
      self.username = username
      self.password = password
      self.timeoutSeconds = timeoutSeconds
      self.caFile = caFile
    }
  }

  /// Sends `message` from `envelopeFrom` to every address in `recipients`.
  package static func send(
    _ message: [UInt8], envelopeFrom: String, recipients: [String], connection: Connection
  ) throws(Failure) {
    guard Curl.globalInit == CURLE_OK else {
      throw Failure(
        kind: .unavailable, curlCode: Int32(Curl.globalInit.rawValue),
        message: "libcurl could not be initialised")
    }
    guard let handle = Curl.Easy() else {
      throw Failure(kind: .unavailable, curlCode: -1, message: "libcurl could not create a handle")
    }
    guard let list = Curl.StringList(recipients.map { "<\($0)>" }) else {
      throw Failure(
        kind: .unavailable, curlCode: -1, message: "libcurl could not allocate the recipient list")
    }

    var setup = CURLE_OK
    func set(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
    set(handle.useErrorBuffer())
    set(handle.set(CURLOPT_URL, connection.url))
    set(
      handle.set(
        CURLOPT_USE_SSL,
        Int(connection.tls == .starttls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue)))
    if let username = connection.username {
      set(handle.set(CURLOPT_USERNAME, username))
      set(handle.set(CURLOPT_PASSWORD, connection.password ?? ""))
    }
    set(handle.set(CURLOPT_MAIL_FROM, "<\(envelopeFrom)>"))
    set(handle.set(CURLOPT_MAIL_RCPT, list))
    set(handle.set(CURLOPT_UPLOAD, 1))
    set(handle.set(CURLOPT_INFILESIZE_LARGE, message.count))
    set(handle.setUpload(message))
    set(handle.set(CURLOPT_CONNECTTIMEOUT, min(30, connection.timeoutSeconds)))
    set(handle.set(CURLOPT_TIMEOUT, connection.timeoutSeconds))
    set(handle.set(CURLOPT_NOSIGNAL, 1))
    if let caFile = connection.caFile { set(handle.set(CURLOPT_CAINFO, caFile)) }
    guard setup == CURLE_OK else {
      throw Failure(
        kind: .unavailable, curlCode: Int32(setup.rawValue),
        message: "libcurl rejected an option: \(Curl.describe(setup))")
    }
    let result = handle.perform()
    guard result == CURLE_OK else {
      let response = handle.responseCode
      let detail = handle.errorDetail
      var text = Curl.describe(result)
      if let sentence = TLSFailureText.sentence(
        code: Int(result.rawValue), detail: detail, caSetting: "mail.caFile", caFile: connection.caFile)
      {
        text = sentence
      } else if !detail.isEmpty && detail != text {
        text += " (\(detail))"
      }
      if response > 0 { text += ", last SMTP reply \(response)" }
      // libcurl reports every refused AUTH as "login denied"; only 535 (or no reply code) means the
      // user name or password is wrong. 530/538 mean the server wants TLS first, 534 a stronger mechanism.
      let wrongCredentials = result == CURLE_LOGIN_DENIED && (response == 535 || response == 0)
      if result == CURLE_LOGIN_DENIED && (response == 530 || response == 538) {
        text += ": the server wants TLS before AUTH (set mail.tls to starttls)"
      }
      throw Failure(
        kind: wrongCredentials ? .authentication : .unavailable, curlCode: Int32(result.rawValue),
        message: text)
    }
  }
}

internal import CCurl
import Foundation

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

  static let globalInit: CURLcode = curl_global_init(storerecon_curl_global_default)

  /// The message bytes libcurl reads while it sends DATA.
  final class Upload {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  /// Sends `message` from `envelopeFrom` to every address in `recipients`.
  package static func send(
    _ message: [UInt8], envelopeFrom: String, recipients: [String], connection: Connection
  ) throws(Failure) {
    guard globalInit == CURLE_OK else {
      throw Failure(
        kind: .unavailable, curlCode: Int32(globalInit.rawValue), message: "libcurl could not be initialised")
    }
    guard let handle = curl_easy_init() else {
      throw Failure(kind: .unavailable, curlCode: -1, message: "libcurl could not create a handle")
    }
    defer { curl_easy_cleanup(handle) }
    var list: UnsafeMutablePointer<curl_slist>?
    for r in recipients {
      guard let appended = curl_slist_append(list, "<\(r)>") else {
        curl_slist_free_all(list)
        throw Failure(
          kind: .unavailable, curlCode: -1, message: "libcurl could not allocate the recipient list")
      }
      list = appended
    }
    defer { curl_slist_free_all(list) }
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(storerecon_curl_error_size) + 1)
    errorBuffer.initialize(repeating: 0, count: Int(storerecon_curl_error_size) + 1)
    defer { errorBuffer.deallocate() }
    let upload = Upload(message)
    let unmanaged = Unmanaged.passRetained(upload)
    defer { unmanaged.release() }

    var setup = CURLE_OK
    func set(_ code: CURLcode) { if setup == CURLE_OK { setup = code } }
    set(storerecon_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer))
    set(storerecon_curl_setopt_string(handle, CURLOPT_URL, connection.url))
    set(
      storerecon_curl_setopt_long(
        handle, CURLOPT_USE_SSL,
        Int(connection.tls == .starttls ? CURLUSESSL_ALL.rawValue : CURLUSESSL_NONE.rawValue)))
    if let username = connection.username {
      set(storerecon_curl_setopt_string(handle, CURLOPT_USERNAME, username))
      set(storerecon_curl_setopt_string(handle, CURLOPT_PASSWORD, connection.password ?? ""))
    }
    set(storerecon_curl_setopt_string(handle, CURLOPT_MAIL_FROM, "<\(envelopeFrom)>"))
    set(storerecon_curl_setopt_slist(handle, CURLOPT_MAIL_RCPT, list))
    set(storerecon_curl_setopt_long(handle, CURLOPT_UPLOAD, 1))
    set(storerecon_curl_setopt_long(handle, CURLOPT_INFILESIZE_LARGE, message.count))
    set(storerecon_curl_setopt_callback(handle, CURLOPT_READFUNCTION, readCallback))
    set(storerecon_curl_setopt_pointer(handle, CURLOPT_READDATA, unmanaged.toOpaque()))
    set(storerecon_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, min(30, connection.timeoutSeconds)))
    set(storerecon_curl_setopt_long(handle, CURLOPT_TIMEOUT, connection.timeoutSeconds))
    set(storerecon_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1))
    if let caFile = connection.caFile { set(storerecon_curl_setopt_string(handle, CURLOPT_CAINFO, caFile)) }
    guard setup == CURLE_OK else {
      throw Failure(
        kind: .unavailable, curlCode: Int32(setup.rawValue),
        message: "libcurl rejected an option: \(describe(setup))")
    }
    let result = curl_easy_perform(handle)
    guard result == CURLE_OK else {
      var response = 0
      _ = storerecon_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &response)
      let detail = String(cString: errorBuffer)
      var text = describe(result)
      if !detail.isEmpty && detail != text { text += " (\(detail))" }
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

  static func describe(_ code: CURLcode) -> String {
    guard let text = curl_easy_strerror(code) else { return "libcurl error \(code.rawValue)" }
    return String(cString: text)
  }

  static let readCallback: storerecon_curl_io_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let upload = Unmanaged<Upload>.fromOpaque(userdata).takeUnretainedValue()
    let n = min(size * count, upload.bytes.count - upload.offset)
    guard n > 0 else { return 0 }
    upload.bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      memcpy(buffer, base + upload.offset, n)
    }
    upload.offset += n
    return n
  }
}

// Safety: the handle is owned (cleaned up once, in deinit) and used by one request at a time; the error
// buffer and header list live for one `perform` and are freed by `defer` after the transfer; libcurl copies
// the body (COPYPOSTFIELDS with its size set first); the sink is kept alive across `curl_easy_perform`
// (withExtendedLifetime), so the callbacks' unretained pointer is valid, and they read exactly `size × count`
// bytes libcurl hands them.

internal import CCurl
import StoreReconSettings

/// The fence around libcurl for HTTP: the only file of the fetch adapter that holds a `CURL` handle, its
/// header list, its error buffer and its callbacks. One ``HTTPTransfer`` owns one handle and sends one
/// request at a time on it, collecting the whole response; the handle is reset between requests but keeps
/// its open connections, so requests to the same host reuse one TLS connection. ``HTTPClient`` adds the
/// retries, the backoff and the rate around it.
///
/// Separate from the mail adapter's `Curl` (SMTP upload through a read callback): this one posts a copied
/// body and receives the status, the header lines and a bounded body through write callbacks.
final class HTTPTransfer {
  /// How one transfer is made.
  struct Options {
    /// PEM file of the certificate authorities to trust instead of the system's (a private CA).
    var caFile: String?
    /// Seconds to wait for the connection, and for the whole transfer.
    var connectTimeoutSeconds: Int
    var totalTimeoutSeconds: Int
    /// The largest body accepted; a larger one fails the transfer.
    var maxBodyBytes: Int
  }

  /// A transfer that got no HTTP response: libcurl's code and text (a refused connection, a timeout, a
  /// certificate that does not verify, a body over the limit, a truncated body).
  struct Failure: Error {
    var code: Int
    var text: String
    /// Whether sending again may help (not for a certificate problem or a body over the limit).
    var retryable: Bool
  }

  /// `curl_global_init`, run once, before the first handle.
  private static let globalInit: CURLcode = curl_global_init(storerecon_curl_global_default)

  /// The handle, owned: `curl_easy_cleanup` runs exactly once, in `deinit`.
  private let handle: UnsafeMutableRawPointer
  private let options: Options

  /// A transfer handle with `options`; `nil` when libcurl cannot start.
  init?(_ options: Options) {
    guard HTTPTransfer.globalInit == CURLE_OK, let handle = curl_easy_init() else { return nil }
    self.handle = handle
    self.options = options
  }

  deinit { curl_easy_cleanup(handle) }

  /// Sends `request` once and returns the response libcurl received, whatever its status.
  func perform(_ request: HTTPRequest) throws(Failure) -> HTTPResponse {
    curl_easy_reset(handle)
    let handle = self.handle
    let options = self.options
    let sink = ResponseSink(limit: options.maxBodyBytes)
    let size = Int(storerecon_curl_error_size) + 1
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
    errorBuffer.initialize(repeating: 0, count: size)
    defer { errorBuffer.deallocate() }
    var list: UnsafeMutablePointer<curl_slist>?
    defer { curl_slist_free_all(list) }
    for (name, value) in request.headers {
      guard let appended = curl_slist_append(list, "\(name): \(value)") else {
        throw Failure(code: -1, text: "libcurl could not allocate a header list", retryable: false)
      }
      list = appended
    }
    // "Expect: 100-continue" would delay every POST by a round trip: turned off.
    if let appended = curl_slist_append(list, "Expect:") { list = appended }
    let code = withExtendedLifetime(sink) { () -> CURLcode in
      let setup = HTTPTransfer.configure(handle, request, options, list, sink, errorBuffer)
      return setup == CURLE_OK ? curl_easy_perform(handle) : setup
    }
    guard code == CURLE_OK else {
      if sink.overLimit {
        throw Failure(
          code: Int(code.rawValue), text: "the body is larger than \(options.maxBodyBytes) bytes",
          retryable: false)
      }
      let detail = String(cString: errorBuffer)
      let text =
        TLSFailureText.sentence(
          code: Int(code.rawValue), detail: detail, caSetting: "fetch.caFile", caFile: options.caFile)
        ?? (detail.isEmpty ? HTTPTransfer.describe(code) : detail)
      throw Failure(code: Int(code.rawValue), text: text, retryable: HTTPTransfer.retryable(code))
    }
    var status = 0
    _ = storerecon_curl_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status)
    return HTTPResponse(status: status, headers: sink.headers, body: sink.body)
  }

  /// Sets every option of the transfer; the first failure's code, or `CURLE_OK`.
  private static func configure(
    _ handle: UnsafeMutableRawPointer, _ request: HTTPRequest, _ options: Options,
    _ list: UnsafeMutablePointer<curl_slist>?, _ sink: ResponseSink,
    _ errorBuffer: UnsafeMutablePointer<CChar>
  ) -> CURLcode {
    let data = Unmanaged.passUnretained(sink).toOpaque()
    var codes: [CURLcode] = [
      storerecon_curl_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
      storerecon_curl_setopt_string(handle, CURLOPT_URL, request.url),
      storerecon_curl_setopt_string(handle, CURLOPT_PROTOCOLS_STR, "https"),
      storerecon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYPEER, 1),
      storerecon_curl_setopt_long(handle, CURLOPT_SSL_VERIFYHOST, 2),
      storerecon_curl_setopt_long(handle, CURLOPT_NOSIGNAL, 1),
      storerecon_curl_setopt_long(handle, CURLOPT_FOLLOWLOCATION, 0),
      storerecon_curl_setopt_long(handle, CURLOPT_CONNECTTIMEOUT, options.connectTimeoutSeconds),
      storerecon_curl_setopt_long(handle, CURLOPT_TIMEOUT, options.totalTimeoutSeconds),
      storerecon_curl_setopt_slist(handle, CURLOPT_HTTPHEADER, list),
      storerecon_curl_setopt_callback(handle, CURLOPT_WRITEFUNCTION, HTTPTransfer.bodyCallback),
      storerecon_curl_setopt_pointer(handle, CURLOPT_WRITEDATA, data),
      storerecon_curl_setopt_callback(handle, CURLOPT_HEADERFUNCTION, HTTPTransfer.headerCallback),
      storerecon_curl_setopt_pointer(handle, CURLOPT_HEADERDATA, data),
    ]
    if let caFile = options.caFile {
      codes.append(storerecon_curl_setopt_string(handle, CURLOPT_CAINFO, caFile))
    }
    switch request.method {
    case "GET": codes.append(storerecon_curl_setopt_long(handle, CURLOPT_HTTPGET, 1))
    case "POST": codes.append(storerecon_curl_setopt_long(handle, CURLOPT_POST, 1))
    default: codes.append(storerecon_curl_setopt_string(handle, CURLOPT_CUSTOMREQUEST, request.method))
    }
    if request.method != "GET" {
      // The size first: CURLOPT_COPYPOSTFIELDS copies that many bytes (the body may hold zero bytes).
      codes.append(storerecon_curl_setopt_long(handle, CURLOPT_POSTFIELDSIZE, request.body.count))
      let copied = request.body.withUnsafeBufferPointer { bytes -> CURLcode in
        var empty: UInt8 = 0
        return withUnsafeMutablePointer(to: &empty) { nothing in
          let base = UnsafeMutableRawPointer(mutating: bytes.baseAddress.map { UnsafeRawPointer($0) })
          return storerecon_curl_setopt_pointer(
            handle, CURLOPT_COPYPOSTFIELDS, base ?? UnsafeMutableRawPointer(nothing))
        }
      }
      codes.append(copied)
    }
    return codes.first { $0 != CURLE_OK } ?? CURLE_OK
  }

  /// libcurl's text for `code`.
  private static func describe(_ code: CURLcode) -> String {
    guard let text = curl_easy_strerror(code) else { return "libcurl error \(code.rawValue)" }
    return String(cString: text)
  }

  /// Whether a transport failure may pass on a second try: refused or dropped connections, timeouts,
  /// resolver hiccups and truncated transfers; not certificate or option failures.
  private static func retryable(_ code: CURLcode) -> Bool {
    [
      CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_CONNECT, CURLE_OPERATION_TIMEDOUT, CURLE_SEND_ERROR,
      CURLE_RECV_ERROR, CURLE_PARTIAL_FILE, CURLE_GOT_NOTHING, CURLE_HTTP2, CURLE_HTTP2_STREAM,
    ].contains(code)
  }

  /// What the callbacks collect while a transfer runs: the header lines of the last response (a
  /// `100 Continue` resets them) and the body, up to `limit` bytes.
  final class ResponseSink {
    let limit: Int
    var body: [UInt8] = []
    var headers: [(name: String, value: String)] = []
    var overLimit = false
    init(limit: Int) { self.limit = limit }

    /// Takes one raw header line (`Name: value`, the status line, or the blank end line).
    func header(_ line: String) {
      if line.hasPrefix("HTTP/") {
        headers.removeAll()
        return
      }
      guard let colon = line.firstIndex(of: ":") else { return }
      let name = line[..<colon].trimmingSpaces
      let value = line[line.index(after: colon)...].trimmingSpaces
      headers.append((String(name), String(value)))
    }
  }

  /// libcurl's body callback: appends to the ``ResponseSink`` its user data points at; returns 0 (which
  /// ends the transfer with an error) once the body would pass the limit.
  static let bodyCallback: storerecon_curl_io_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    guard n > 0, let buffer else { return n }
    if sink.body.count + n > sink.limit {
      sink.overLimit = true
      return 0
    }
    buffer.withMemoryRebound(to: UInt8.self, capacity: n) { bytes in
      sink.body.append(contentsOf: UnsafeBufferPointer(start: bytes, count: n))
    }
    return n
  }

  /// libcurl's header callback: one header line at a time, handed to the ``ResponseSink``.
  static let headerCallback: storerecon_curl_io_callback = { buffer, size, count, userdata in
    guard let userdata else { return 0 }
    let sink = Unmanaged<ResponseSink>.fromOpaque(userdata).takeUnretainedValue()
    let n = size * count
    guard n > 0, let buffer else { return n }
    let line = buffer.withMemoryRebound(to: UInt8.self, capacity: n) { bytes in
      String(decoding: UnsafeBufferPointer(start: bytes, count: n), as: UTF8.self)
    }
    sink.header(line)
    return n
  }
}

extension Substring {
  /// Without leading and trailing spaces, tabs and line ends.
  fileprivate var trimmingSpaces: Substring {
    let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }
    let start = firstIndex { !isSpace($0) } ?? endIndex
    let end = lastIndex { !isSpace($0) }.map { index(after: $0) } ?? start
    return start < end ? self[start..<end] : self[start..<start]
  }
}

// Safety: each handle owns its error buffer, string lists and upload and cleans up before freeing them
// (deinit), so libcurl never reads freed memory; the read callback copies at most `size × count` bytes from
// the upload the handle keeps alive.

internal import CCurl

/// The fence around libcurl: the only file of the mail adapter that holds libcurl's handles, lists,
/// buffers and callbacks. ``SMTPSender`` drives it through these small safe APIs.
enum Curl {
  /// `curl_global_init`, run once, before the first handle.
  static let globalInit: CURLcode = curl_global_init(storerecon_curl_global_default)

  /// libcurl's text for `code` (`curl_easy_strerror`).
  static func describe(_ code: CURLcode) -> String {
    guard let text = curl_easy_strerror(code) else { return "libcurl error \(code.rawValue)" }
    return String(cString: text)
  }

  /// The one owner of a `curl_slist`: `curl_slist_free_all` runs exactly once, when the last reference
  /// goes (after the handle that uses it is cleaned up: ``Easy`` keeps it alive).
  final class StringList {
    fileprivate let raw: UnsafeMutablePointer<curl_slist>?

    /// The list of `strings` in order; `nil` when libcurl cannot allocate it.
    init?(_ strings: [String]) {
      var list: UnsafeMutablePointer<curl_slist>?
      for string in strings {
        guard let appended = curl_slist_append(list, string) else {
          curl_slist_free_all(list)
          return nil
        }
        list = appended
      }
      raw = list
    }

    deinit { curl_slist_free_all(raw) }
  }

  /// The one owner of a `CURL` easy handle and of what libcurl reads through it while it runs: its
  /// error buffer, its string lists and the bytes it uploads. `curl_easy_cleanup` runs exactly once, in
  /// `deinit`, before any of them is freed.
  final class Easy {
    private let raw: UnsafeMutableRawPointer
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private var lists: [StringList] = []
    private var upload: Upload?

    /// A new handle (`curl_easy_init`); `nil` when libcurl cannot create one.
    init?() {
      guard let handle = curl_easy_init() else { return nil }
      raw = handle
      let size = Int(storerecon_curl_error_size) + 1
      errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: size)
      errorBuffer.initialize(repeating: 0, count: size)
    }

    deinit {
      curl_easy_cleanup(raw)
      errorBuffer.deallocate()
    }

    /// Makes libcurl write its detailed error text where ``errorDetail`` reads it (`CURLOPT_ERRORBUFFER`).
    func useErrorBuffer() -> CURLcode {
      storerecon_curl_setopt_pointer(raw, CURLOPT_ERRORBUFFER, errorBuffer)
    }

    /// Sets a string option (libcurl copies the string).
    func set(_ option: CURLoption, _ value: String) -> CURLcode {
      storerecon_curl_setopt_string(raw, option, value)
    }

    /// Sets a `long` option.
    func set(_ option: CURLoption, _ value: Int) -> CURLcode {
      storerecon_curl_setopt_long(raw, option, value)
    }

    /// Sets a list option; the handle keeps `list` alive for as long as it lives.
    func set(_ option: CURLoption, _ list: StringList) -> CURLcode {
      lists.append(list)
      return storerecon_curl_setopt_slist(raw, option, list.raw)
    }

    /// Makes libcurl read the data it sends from `bytes` (`CURLOPT_READFUNCTION`, `CURLOPT_READDATA`);
    /// the handle keeps them for as long as it lives. Returns the first failure, if any.
    func setUpload(_ bytes: [UInt8]) -> CURLcode {
      let upload = Upload(bytes)
      self.upload = upload
      let function = storerecon_curl_setopt_callback(raw, CURLOPT_READFUNCTION, Curl.readCallback)
      let data = storerecon_curl_setopt_pointer(
        raw, CURLOPT_READDATA, Unmanaged.passUnretained(upload).toOpaque())
      return function != CURLE_OK ? function : data
    }

    /// Runs the transfer (`curl_easy_perform`).
    func perform() -> CURLcode { curl_easy_perform(raw) }

    /// The last response code the server sent (`CURLINFO_RESPONSE_CODE`); 0 when there was none.
    var responseCode: Int {
      var response = 0
      _ = storerecon_curl_getinfo_long(raw, CURLINFO_RESPONSE_CODE, &response)
      return response
    }

    /// The detailed error text libcurl left in the error buffer (empty when none).
    var errorDetail: String { String(cString: errorBuffer) }
  }

  /// The message bytes libcurl reads while it sends DATA.
  final class Upload {
    let bytes: [UInt8]
    var offset = 0
    init(_ bytes: [UInt8]) { self.bytes = bytes }
  }

  /// libcurl's read callback: the next bytes of the ``Upload`` its user data points at (the handle that
  /// set it keeps the upload alive), at most `size × count` of them; 0 at the end.
  static let readCallback: storerecon_curl_io_callback = { buffer, size, count, userdata in
    guard let buffer, let userdata else { return 0 }
    let upload = Unmanaged<Upload>.fromOpaque(userdata).takeUnretainedValue()
    let n = min(size * count, upload.bytes.count - upload.offset)
    guard n > 0 else { return 0 }
    upload.bytes.withUnsafeBytes { raw in
      guard let base = raw.baseAddress else { return }
      UnsafeMutableRawPointer(buffer).copyMemory(from: base + upload.offset, byteCount: n)
    }
    upload.offset += n
    return n
  }
}

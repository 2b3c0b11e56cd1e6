import StoreReconPlatform
import StoreReconPlatform

/// A plain file read sequentially in large blocks with `read(2)`, or at an offset with `pread(2)`.
///
/// The descriptor is owned by this object (through ``ReadOnlyFile``) and closed once, when it goes away.
package final class FileByteSource: ByteSource {
  /// The file's name as the user wrote it, used in errors.
  package let displayName: String
  /// The file's size in bytes when it was opened.
  package let size: Int64
  let file: ReadOnlyFile

  /// Opens `path` for reading; errors name `displayName`.
  package init(path: String, displayName: String) throws(InputError) {
    self.displayName = displayName
    do {
      file = try ReadOnlyFile(path: path)
    } catch {
      if error.isNotFound { throw .notFound(path: displayName) }
      if error.isDirectory { throw .unreadable(path: displayName, reason: "it is a directory") }
      throw .unreadable(path: displayName, reason: error.description)
    }
    size = file.size
  }

  /// The whole file mapped into memory (``mapWhole()``), or `nil`.
  private(set) var mapping: MappedFile?

  /// Maps the whole file, once (a no-op when it cannot be mapped); call it before the source is shared
  /// between threads.
  func mapWhole() {
    if mapping == nil { mapping = MappedFile(fd: file.descriptor, size: size) }
  }

  static func message(_ code: Int32) -> String { Syscall.message(code) }
}

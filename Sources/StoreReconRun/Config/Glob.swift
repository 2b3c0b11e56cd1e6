import Foundation

/// Expands the config's file patterns: `*`, `?` and `[…]` in the file name part, sorted matches (folders
/// left out).
package enum Glob {
  /// Files matching `pattern` (relative to `base`), sorted; each with the path as the user would write it.
  package static func expand(_ pattern: String, base: String) -> [(path: String, display: String)] {
    let resolved = pattern.hasPrefix("/") ? pattern : base + "/" + pattern
    let url = URL(fileURLWithPath: resolved)
    let name = url.lastPathComponent
    let directory = url.deletingLastPathComponent().path
    let displayDirectory = (pattern as NSString).deletingLastPathComponent
    guard name.contains(where: { "*?[".contains($0) }) else {
      return FileManager.default.fileExists(atPath: resolved) ? [(resolved, pattern)] : []
    }
    guard let entries = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
    // A folder a wildcard happens to match is not an input (an exact path naming one is refused later).
    let files = entries.filter { entry in
      var isDirectory: ObjCBool = false
      _ = FileManager.default.fileExists(atPath: directory + "/" + entry, isDirectory: &isDirectory)
      return !isDirectory.boolValue
    }
    return files.filter { unsafe (!$0.hasPrefix(".") && fnmatch(name, $0, 0) == 0) }.sorted().map { entry in
      (directory + "/" + entry, displayDirectory.isEmpty ? entry : displayDirectory + "/" + entry)
    }
  }
}

import Foundation

/// Expands the config's file patterns: `*`, `?` and `[…]` in the file name part, sorted matches.
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
    return entries.filter { unsafe (!$0.hasPrefix(".") && fnmatch(name, $0, 0) == 0) }.sorted().map { entry in
      (directory + "/" + entry, displayDirectory.isEmpty ? entry : displayDirectory + "/" + entry)
    }
  }
}

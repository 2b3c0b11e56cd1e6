/// The tool's name and version, as `--version` prints them and the manifest records them.
package enum StoreReconVersion {
  /// Semantic version of this build.
  package static let version = "0.1.0"
}

/// The tool's name and version, as `--version` prints them and the manifest records them.
public enum StoreReconVersion {
  /// Semantic version of this build.
  public static let version = "0.1.0"
}

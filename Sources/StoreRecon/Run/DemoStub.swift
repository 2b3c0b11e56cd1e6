// Temporary until the demo generator lands.
public struct DemoOptions: Sendable {
  public var users = 5000
  public var seed: UInt64 = 42
  public var asOf = CivilDate(year: 2026, month: 11, day: 29)
  public init() {}
}
enum DemoRun {
  struct Outcome { var text: String; var exitCode: Int32 }
  static func execute(options: DemoOptions, directory: String, progress: any ProgressSink) throws(RunError) -> Outcome {
    throw RunError(.ioError, "demo not available yet")
  }
}

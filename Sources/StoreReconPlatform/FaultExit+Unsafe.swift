// Safety: the handler keeps no pointer and calls only async-signal-safe functions: write(2) of a static
// string, then _exit.

#if canImport(Glibc)
  import Glibc
#endif

/// What a mapped input costs when it changes under the run: a page of a file that shrank after it was
/// mapped raises SIGBUS on the next read (an export job rewriting a file while the job reads it). The
/// handler turns that into one line on stderr and exit 74 instead of a crash report; the run publishes
/// its report folder only whole (a fresh folder and one rename), so nothing half-written is left.
///
/// Only SIGBUS: a segmentation fault is a bug and still crashes loudly.
package enum FaultExit {
  /// The exit code of a SIGBUS (EX_IOERR, as an unreadable input).
  package static let code: Int32 = 74

  /// Installs the handler (once per process; later calls replace it with the same one).
  package static func installBusHandler() {
    var action = sigaction()
    action.__sigaction_handler.sa_handler = { _ in
      // Only async-signal-safe calls: write(2) of a constant, then _exit.
      let message: StaticString =
        "storerecon: an input file changed or shrank while the run read it (SIGBUS on its mapped pages); nothing was published; run again once the exports are complete\n"
      _ = write(2, message.utf8Start, message.utf8CodeUnitCount)
      _exit(74)
    }
    sigemptyset(&action.sa_mask)
    action.sa_flags = 0
    _ = sigaction(SIGBUS, &action, nil)
  }
}

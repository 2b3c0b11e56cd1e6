import Glibc

/// An exclusive `flock` on a lock file, held until ``release()`` or the end of the process (the kernel
/// drops it when the process dies, also by SIGKILL: a lock is never left stale). The lock file stays in
/// place; removing it would let two runs lock two different files of one name.
package final class FileLock {
  private var descriptor: Int32

  private init(descriptor: Int32) { self.descriptor = descriptor }

  deinit { release() }

  /// Locks `path` (created with mode 0640 when missing), waiting at most `timeoutSeconds` (0: not at
  /// all) while another process holds it; `waiting` hears once that it waits. `nil` when the other
  /// process kept it that long.
  package static func acquire(path: String, timeoutSeconds: Int, waiting: (String) -> Void)
    throws(SystemError) -> FileLock?
  {
    let fd = try Syscall.retrying { open(path, O_RDWR | O_CREAT | O_CLOEXEC, mode_t(0o640)) }
    let lock = FileLock(descriptor: fd)
    let clock = ContinuousClock()
    let deadline = clock.now + .seconds(max(0, timeoutSeconds))
    var told = false
    while true {
      if flock(fd, LOCK_EX | LOCK_NB) == 0 { return lock }
      let code = errno
      guard code == EWOULDBLOCK || code == EINTR else { throw SystemError(code: code) }
      guard clock.now < deadline else { return nil }
      if !told {
        waiting("another run holds \(path); waiting up to \(timeoutSeconds) s")
        told = true
      }
      usleep(50_000)
    }
  }

  /// Releases the lock (closing its file); does nothing the second time.
  package func release() {
    guard descriptor >= 0 else { return }
    close(descriptor)
    descriptor = -1
  }

  /// This process's id.
  package static var processID: Int32 { getpid() }

  /// Whether a process `pid` exists (it may belong to another user).
  package static func processIsAlive(_ pid: Int32) -> Bool {
    guard pid > 0 else { return false }
    return kill(pid, 0) == 0 || errno == EPERM
  }
}

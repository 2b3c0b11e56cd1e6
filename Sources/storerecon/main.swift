import StoreReconCLI
import StoreReconPlatform

#if canImport(Glibc)
  import Glibc
#endif

// Process-wide settings belong to the process, not to a library: tune the allocator once, here.
AllocatorTuning.apply()
exit(StoreReconCLI.main(Array(CommandLine.arguments.dropFirst())))

// `storerecon-worker plan | tag | run`: the worker side of a partitioned run on an engine
// (docs/partitions.md#the-worker-protocol), in an executable that links no libpq, libxlsxwriter or
// libcurl (`storerecon worker …` is the same code inside the full binary).
import StoreReconPlatform
import StoreReconRun

#if canImport(Glibc)
  import Glibc
#endif

AllocatorTuning.apply()
exit(WorkerCommand.main(Array(CommandLine.arguments.dropFirst())))
